// The words of alerting: webhooks (where alerts go), rules (what fires them), queued notices and
// counted reports (what ingestion leaves for the rules), firings (a rule that fired for a card)
// and deliveries (one firing's body on its way to one webhook, with its attempts).
import type { components } from '../generated/wire.gen.ts';
import { alertPayloadSchema, taskReportSchema } from '../generated/schema.gen.ts';
import type { CardRow } from '../store/rows.ts';

type Schemas = components['schemas'];

/** What a JSON webhook receives (the spec's `AlertPayload`). */
export type AlertPayload = Schemas['AlertPayload'];
/** What a Slack-compatible webhook receives (the spec's `SlackAlert`). */
export type SlackAlert = Schemas['SlackAlert'];
/** `new`, `regression`, `frequency`, or `test`. */
export type AlertEvent = Schemas['AlertEvent'];
/** What a rule listens to: every alert event but `test`. */
export type RuleEvent = Exclude<AlertEvent, 'test'>;
export type Severity = Schemas['Severity'];

/** The rule events, in the spec's order. */
export const RULE_EVENTS: readonly RuleEvent[] =
  alertPayloadSchema.properties.rule.properties.event.enum;

/** The severities, most severe first (the spec's order). */
export const SEVERITIES: readonly Severity[] = taskReportSchema.properties.severity.enum;

/** `json`: the signed `AlertPayload`; `slack`: a Slack-compatible incoming-webhook message. */
export type WebhookFormat = 'json' | 'slack';
export const WEBHOOK_FORMATS: readonly WebhookFormat[] = ['json', 'slack'];

export interface Webhook {
  id: number;
  projectId: number;
  name: string;
  /** The whole URL (it may hold a credential, as Slack's do): show `shownUrl(url)` instead. */
  url: string;
  format: WebhookFormat;
  createdAt: string;
}

export interface NewWebhook {
  projectId: number;
  name: string;
  url: string;
  format: WebhookFormat;
  /** sha256 of the secret (`json` webhooks; the HMAC key equivalent to it), else null. */
  secretHash: Buffer | null;
}

export interface AlertRule {
  id: number;
  projectId: number;
  webhookId: number;
  name: string;
  event: RuleEvent;
  /** Environments (`env:` values) whose reports count; null: every report. */
  environments: string[] | null;
  /** Card severities that fire; null: all. */
  severities: Severity[] | null;
  /** `frequency`: fires on more than this many reports in `windowMinutes`; else null. */
  threshold: number | null;
  /** A card fires the rule at most once in this many minutes (and `frequency` counts over it). */
  windowMinutes: number;
  createdAt: string;
}

export type NewAlertRule = Omit<AlertRule, 'id' | 'createdAt'>;

/** A new card or a regression ingestion queued for the project's rules. */
export interface QueuedNotice {
  id: number;
  projectId: number;
  cardId: number;
  event: 'new' | 'regression';
  environment: string | null;
  release: string | null;
  at: number;
}

/** A frequency rule's count of one card over its window, as the store summed it. */
export interface CountedCard {
  ruleId: number;
  cardId: number;
  count: number;
  /** The one environment the counted reports came from, else null. */
  environment: string | null;
}

/** The card columns an alert shows. */
export type AlertCardRow = Pick<
  CardRow,
  | 'id'
  | 'project_id'
  | 'title'
  | 'priority'
  | 'severity'
  | 'tags'
  | 'status'
  | 'occurrence_count'
  | 'file_name'
  | 'line_number'
  | 'created_at'
  | 'last_seen_at'
  | 'regressions'
>;

/** What a store read for one planning turn: the rules decide on it (`AlertPlanner.plan`). */
export interface AlertWork {
  notices: QueuedNotice[];
  /** Live rules of the notices' projects, and every live frequency rule counted this turn. */
  rules: AlertRule[];
  counted: CountedCard[];
  cards: Map<number, AlertCardRow>;
  projects: Map<number, string>;
  webhooks: Map<number, Webhook>;
}

/** One rule that fired for one card. */
export interface Firing {
  rule: AlertRule;
  cardId: number;
  event: RuleEvent;
  environment: string | null;
  release: string | null;
  /** `frequency`: the reports counted; else null. */
  count: number | null;
}

/**
 * The pure half of planning, handed to the store (which reads, asks, then writes in one
 * transaction): which rules fire, and the exact body of each delivery.
 */
export interface AlertPlanner {
  plan(work: AlertWork): Firing[];
  body(firing: Firing, deliveryId: number, work: AlertWork, now: number): string;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** A delivery claimed for an attempt, with what sending it needs. */
export interface DueDelivery {
  id: number;
  event: AlertEvent;
  body: string;
  attempts: number;
  url: string;
  format: WebhookFormat;
  secretHash: Buffer | null;
}

/** What one attempt ended in: delivered, or not (then retried at `retryAt`, or given up: null). */
export interface AttemptRecord {
  delivered: boolean;
  /** The receiver's HTTP status, or null when it gave none. */
  status: number | null;
  /** Why it failed, for the log (never a secret or a URL's path). */
  error: string | null;
  retryAt: number | null;
  at: number;
}

/** A row of a project's delivery log. */
export interface DeliveryLogRow {
  id: number;
  event: AlertEvent;
  ruleId: number;
  ruleName: string;
  webhookId: number;
  webhookName: string;
  webhookUrl: string;
  cardId: number | null;
  cardTitle: string | null;
  state: DeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  /** When the next attempt is due (pending deliveries), else null. */
  nextAttemptAt: string | null;
  finishedAt: string | null;
}
