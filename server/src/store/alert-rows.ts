import type {
  AlertEvent,
  AlertRule,
  DeliveryLogRow,
  DeliveryState,
  DueDelivery,
  QueuedNotice,
  RuleEvent,
  Severity,
  Webhook,
  WebhookFormat,
} from '../alerts/types.ts';
import { iso } from './rows.ts';

// Row shapes of the alert tables (the same columns on SQLite and PostgreSQL) and their mapping.

export interface WebhookRow {
  id: number;
  project_id: number;
  name: string;
  url: string;
  format: WebhookFormat;
  secret_hash: Buffer | null;
  created_at: number;
}

export interface RuleRow {
  id: number;
  project_id: number;
  webhook_id: number;
  name: string;
  event: RuleEvent;
  environments: string | null;
  severities: string | null;
  threshold: number | null;
  window_minutes: number;
  created_at: number;
}

export interface NoticeRow {
  id: number;
  project_id: number;
  card_id: number;
  event: 'new' | 'regression';
  environment: string | null;
  release: string | null;
  at: number;
}

export interface DueRow {
  id: number;
  event: AlertEvent;
  body: string;
  attempts: number;
  url: string;
  format: WebhookFormat;
  secret_hash: Buffer | null;
}

export interface LogRow {
  id: number;
  event: AlertEvent;
  rule_id: number;
  rule_name: string;
  webhook_id: number;
  webhook_name: string;
  webhook_url: string;
  card_id: number | null;
  card_title: string | null;
  state: DeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  next_at: number | null;
  finished_at: number | null;
}

/** The columns of a card an alert shows (`AlertCardRow`). */
export const ALERT_CARD_COLUMNS = `id, project_id, title, priority, severity, tags, status,
  occurrence_count, file_name, line_number, created_at, last_seen_at, regressions`;

export const toWebhook = (r: WebhookRow): Webhook => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  url: r.url,
  format: r.format,
  createdAt: iso(r.created_at),
});

export const toRule = (r: RuleRow): AlertRule => ({
  id: r.id,
  projectId: r.project_id,
  webhookId: r.webhook_id,
  name: r.name,
  event: r.event,
  environments: r.environments === null ? null : (JSON.parse(r.environments) as string[]),
  severities: r.severities === null ? null : (JSON.parse(r.severities) as Severity[]),
  threshold: r.threshold,
  windowMinutes: r.window_minutes,
  createdAt: iso(r.created_at),
});

/** A rule's columns to insert, in the order of `RULE_INSERT_COLUMNS`. */
export const ruleValues = (rule: Omit<AlertRule, 'id' | 'createdAt'>, at: number) => [
  rule.projectId,
  rule.webhookId,
  rule.name,
  rule.event,
  rule.environments && JSON.stringify(rule.environments),
  rule.severities && JSON.stringify(rule.severities),
  rule.threshold,
  rule.windowMinutes,
  at,
];
export const RULE_INSERT_COLUMNS = `project_id, webhook_id, name, event, environments, severities,
  threshold, window_minutes, created_at`;

export const toNotice = (r: NoticeRow): QueuedNotice => ({
  id: r.id,
  projectId: r.project_id,
  cardId: r.card_id,
  event: r.event,
  environment: r.environment,
  release: r.release,
  at: r.at,
});

export const toDue = (r: DueRow): DueDelivery => ({
  id: r.id,
  event: r.event,
  body: r.body,
  attempts: r.attempts,
  url: r.url,
  format: r.format,
  secretHash: r.secret_hash,
});

export const toLogRow = (r: LogRow): DeliveryLogRow => ({
  id: r.id,
  event: r.event,
  ruleId: r.rule_id,
  ruleName: r.rule_name,
  webhookId: r.webhook_id,
  webhookName: r.webhook_name,
  webhookUrl: r.webhook_url,
  cardId: r.card_id,
  cardTitle: r.card_title,
  state: r.state,
  attempts: r.attempts,
  lastStatus: r.last_status,
  lastError: r.last_error,
  createdAt: iso(r.created_at),
  nextAttemptAt: r.state === 'pending' && r.next_at !== null ? iso(r.next_at) : null,
  finishedAt: r.finished_at === null ? null : iso(r.finished_at),
});

/** The delivery log's query (both engines), with `$PROJECT`, `$BEFORE`, `$LIMIT` placeholders. */
export const LOG_SQL = `SELECT d.id, d.event, d.rule_id, r.name AS rule_name, d.webhook_id,
    w.name AS webhook_name, w.url AS webhook_url, d.card_id, c.title AS card_title, d.state,
    d.attempts, d.last_status, d.last_error, d.created_at, d.next_at, d.finished_at
  FROM alert_deliveries d JOIN alert_rules r ON r.id = d.rule_id
  JOIN webhooks w ON w.id = d.webhook_id LEFT JOIN cards c ON c.id = d.card_id
  WHERE d.project_id = $PROJECT AND d.id < $BEFORE ORDER BY d.id DESC LIMIT $LIMIT`;

/** What a recorded attempt writes: the new state, its status and error, when next, when done. */
export function attemptColumns(a: {
  delivered: boolean;
  status: number | null;
  error: string | null;
  retryAt: number | null;
  at: number;
}) {
  const state: DeliveryState = a.delivered
    ? 'delivered'
    : a.retryAt === null
      ? 'failed'
      : 'pending';
  return {
    state,
    status: a.status,
    error: a.error === null ? null : a.error.slice(0, 500),
    nextAt: state === 'pending' ? a.retryAt : null,
    finishedAt: state === 'pending' ? null : a.at,
  };
}
