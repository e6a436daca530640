import { iso } from '../store/rows.ts';
import type {
  AlertCardRow,
  AlertPayload,
  AlertRule,
  Firing,
  SlackAlert,
  WebhookFormat,
} from './types.ts';

/** What a payload says besides the firing: where the card lives, and the board's address. */
export interface PayloadContext {
  deliveryId: number;
  projectId: number;
  projectName: string;
  card: AlertCardRow | null;
  /** The service's public address (`publicUrl`), for links to the board; else undefined. */
  publicUrl: string | undefined;
  now: number;
}

const ruleOf = (rule: AlertRule): AlertPayload['rule'] => ({
  id: rule.id,
  name: rule.name,
  event: rule.event,
  environments: rule.environments,
  severities: rule.severities,
  threshold: rule.threshold,
  window_minutes: rule.windowMinutes,
});

function cardOf(card: AlertCardRow, ctx: PayloadContext): NonNullable<AlertPayload['card']> {
  return {
    id: card.id,
    title: card.title,
    severity: card.severity,
    priority: card.priority,
    status: card.status,
    occurrence_count: card.occurrence_count,
    regressions: card.regressions,
    file_name: card.file_name,
    line_number: card.line_number,
    tags: JSON.parse(card.tags) as string[],
    created_at: iso(card.created_at),
    last_seen_at: iso(card.last_seen_at),
    url:
      ctx.publicUrl === undefined
        ? null
        : `${ctx.publicUrl}/board/projects/${ctx.projectId}/cards/${card.id}`,
  };
}

/** The JSON payload of a firing (its card as it is now). */
export function alertPayload(firing: Firing, ctx: PayloadContext): AlertPayload {
  return {
    id: ctx.deliveryId,
    event: firing.event,
    created_at: iso(ctx.now),
    project: { id: ctx.projectId, name: ctx.projectName },
    rule: ruleOf(firing.rule),
    card: ctx.card && cardOf(ctx.card, ctx),
    environment: firing.environment,
    release: firing.release,
    count: firing.count,
  };
}

/** The payload of a test delivery: the rule, no card. */
export function testPayload(rule: AlertRule, ctx: PayloadContext): AlertPayload {
  return {
    id: ctx.deliveryId,
    event: 'test',
    created_at: iso(ctx.now),
    project: { id: ctx.projectId, name: ctx.projectName },
    rule: ruleOf(rule),
    card: null,
    environment: null,
    release: null,
    count: null,
  };
}

/** Slack `mrkdwn` text: `&`, `<` and `>` are control characters there. */
export const slackEscape = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** A link's label cannot hold `|` (it ends the URL part); a look-alike stands in. */
const linkLabel = (text: string) => slackEscape(text).replaceAll('|', '\u2223');

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function headline(p: AlertPayload): string {
  switch (p.event) {
    case 'new':
      return 'New card';
    case 'regression':
      return 'Regression';
    case 'frequency':
      return `${plural(p.count ?? 0, 'report')} in ${p.rule.window_minutes} min`;
    case 'test':
      return 'Test alert';
  }
}

/** The facts under a card: severity, priority, reports, place, release, the rule. */
function facts(p: AlertPayload, card: NonNullable<AlertPayload['card']>): string {
  const place =
    card.file_name === null
      ? null
      : card.line_number === null
        ? card.file_name
        : `${card.file_name}:${card.line_number}`;
  return [
    card.severity,
    `${card.priority} priority`,
    `${plural(card.occurrence_count, 'report')} in all`,
    place,
    p.release === null ? null : `release ${p.release}`,
    `rule “${p.rule.name}”`,
  ]
    .filter((fact): fact is string => fact !== null)
    .map(slackEscape)
    .join(' · ');
}

/**
 * The Slack-compatible message of a payload: `text` is the notification line, `blocks` a section
 * (what fired, where, and the card's title, linked to the board when the address is known) and a
 * context line of facts. Every report value is escaped for `mrkdwn`.
 */
export function slackAlert(p: AlertPayload): SlackAlert {
  const where = `${slackEscape(p.project.name)}${p.environment === null ? '' : ` (${slackEscape(p.environment)})`}`;
  const head = headline(p);
  if (p.card === null) {
    const line = `${head}: rule “${slackEscape(p.rule.name)}” of ${where} reaches this channel.`;
    return {
      text: line,
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: `*${head}*: rule “${slackEscape(p.rule.name)}” of *${where}* reaches this channel.`,
          },
        },
      ],
    };
  }
  const title =
    p.card.url === null
      ? `*${slackEscape(p.card.title)}*`
      : `*<${p.card.url}|${linkLabel(p.card.title)}>*`;
  return {
    text: `${head} in ${where}: ${slackEscape(p.card.title)}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${head}* in *${where}*\n${title}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: facts(p, p.card) }] },
    ],
  };
}

/** The exact bytes a webhook of this format receives for the payload. */
export const alertBody = (format: WebhookFormat, payload: AlertPayload): string =>
  JSON.stringify(format === 'slack' ? slackAlert(payload) : payload);
