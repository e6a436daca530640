import { shownUrl } from '../../alerts/setup.ts';
import {
  type AlertRule,
  type DeliveryLogRow,
  RULE_EVENTS,
  SEVERITIES,
  type Webhook,
  WEBHOOK_FORMATS,
} from '../../alerts/types.ts';
import type { BoardProjectPage } from '../../store/board-types.ts';
import { clip, utc } from '../format.ts';
import { type Html, html } from '../html.ts';
import { page } from '../layout.ts';
import { shortName } from './overview.ts';
import { csrfField } from './status.ts';

// A project's alerts: its webhooks and rules with the forms that add, test and remove them (each
// carries the session's form token), and the delivery log. Report values (card titles, names,
// receivers' errors) are escaped by `html` like everywhere on the board.

/** Deliveries a page of the log shows. */
export const DELIVERIES_PER_PAGE = 50;
const ERROR_CHARS = 120;

export interface AlertsView {
  project: BoardProjectPage;
  webhooks: Webhook[];
  rules: AlertRule[];
  /** One more than a page when there are older ones. */
  deliveries: DeliveryLogRow[];
  /** The log page starts below this id (keyset), else at the newest. */
  before: number | undefined;
  /** What the last action did, or why it was refused. */
  notice?: { ok: boolean; text: string | Html };
  /** Set when alerts are not delivered by this instance. */
  off?: boolean;
}

const EVENT_LABEL = {
  new: 'New card',
  regression: 'Regression',
  frequency: 'Frequency',
  test: 'Test',
} as const;

/** What fires a rule, as its row says it (a card is new once; a regression may come back). */
const when = (rule: AlertRule) =>
  rule.event === 'frequency'
    ? `more than ${rule.threshold} reports in ${rule.windowMinutes} min`
    : rule.event === 'new'
      ? 'a new card'
      : `a regression, at most once per card in ${rule.windowMinutes} min`;

const base = (projectId: number) => `/board/projects/${projectId}/alerts`;

function webhooksTable(v: AlertsView, csrf?: string): Html {
  const rows = v.webhooks.map(
    (
      w,
    ) => html`<tr><td class="num">${w.id}</td><td>${w.name}</td><td><code class="hint">${shownUrl(w.url)}</code></td><td>${w.format}${w.format === 'json' ? ' (signed)' : ''}</td><td>${utc(Date.parse(w.createdAt))}</td><td><form method="post" action="${base(v.project.id)}/webhooks/${w.id}/remove">${csrfField(csrf)}<button type="submit">Remove</button></form></td></tr>
`,
  );
  return rows.length
    ? html`<table><thead><tr><th class="num">#</th><th>Name</th><th>Receiver</th><th>Format</th><th>Added</th><th></th></tr></thead><tbody>
${rows}</tbody></table>`
    : html`<p class="muted">No webhooks yet.</p>`;
}

function webhookForm(v: AlertsView, csrf?: string): Html {
  const formats = WEBHOOK_FORMATS.map(
    (f) =>
      html`<option value="${f}">${f === 'json' ? 'JSON (signed)' : 'Slack-compatible'}</option>`,
  );
  return html`<form class="filters" method="post" action="${base(v.project.id)}/webhooks">${csrfField(csrf)}
<label>Name<input name="name" maxlength="100" placeholder="on-call"></label>
<label>URL<input name="url" type="url" required maxlength="2048" size="48" placeholder="https://hooks.example.com/svc"></label>
<label>Format<select name="format">${formats}</select></label>
<button type="submit">Add webhook</button>
</form>`;
}

function rulesTable(v: AlertsView, csrf?: string): Html {
  const hooks = new Map(v.webhooks.map((w) => [w.id, w]));
  const rows = v.rules.map(
    (
      r,
    ) => html`<tr><td class="num">${r.id}</td><td>${r.name}</td><td>${when(r)}</td><td>${r.environments?.join(', ') ?? 'any'}</td><td>${r.severities?.join(', ') ?? 'any'}</td><td>${hooks.get(r.webhookId)?.name ?? `#${r.webhookId}`}</td><td><form class="status-form" method="post" action="${base(v.project.id)}/rules/${r.id}/test">${csrfField(csrf)}<button type="submit">Send test</button></form><form class="status-form" method="post" action="${base(v.project.id)}/rules/${r.id}/remove">${csrfField(csrf)}<button type="submit">Remove</button></form></td></tr>
`,
  );
  return rows.length
    ? html`<table><thead><tr><th class="num">#</th><th>Name</th><th>Fires on</th><th>Environments</th><th>Severities</th><th>Webhook</th><th></th></tr></thead><tbody>
${rows}</tbody></table>`
    : html`<p class="muted">No rules yet.</p>`;
}

function ruleForm(v: AlertsView, csrf?: string): Html {
  if (v.webhooks.length === 0)
    return html`<p class="muted">Add a webhook first: a rule sends to one.</p>`;
  const events = RULE_EVENTS.map((e) => html`<option value="${e}">${EVENT_LABEL[e]}</option>`);
  const hooks = v.webhooks.map((w) => html`<option value="${w.id}">${w.name}</option>`);
  const severities = SEVERITIES.map(
    (s) =>
      html`<label class="check"><input type="checkbox" name="severity" value="${s}"> ${s}</label>`,
  );
  return html`<form class="filters" method="post" action="${base(v.project.id)}/rules">${csrfField(csrf)}
<label>Name<input name="name" maxlength="100" placeholder="Production criticals"></label>
<label>Fires on<select name="event">${events}</select></label>
<label>More than (frequency)<input name="threshold" type="number" min="1" size="6" placeholder="100"></label>
<label>Window, minutes<input name="window" type="number" min="1" max="1440" size="5" placeholder="60"></label>
<label>Environments<input name="environments" maxlength="1000" placeholder="production, staging"></label>
<fieldset class="checks"><legend>Severities</legend>${severities}</fieldset>
<label>Webhook<select name="webhook">${hooks}</select></label>
<button type="submit">Add rule</button>
</form>`;
}

const stateOf = (d: DeliveryLogRow) => html`<span class="status st-${d.state}">${d.state}</span>`;

function deliveryRow(v: AlertsView, d: DeliveryLogRow): Html {
  const card =
    d.cardId === null
      ? html`<span class="muted">none</span>`
      : html`<a href="/board/projects/${v.project.id}/cards/${d.cardId}">#${d.cardId} ${d.cardTitle ?? ''}</a>`;
  const last =
    d.lastStatus !== null
      ? `HTTP ${d.lastStatus}`
      : d.lastError === null
        ? ''
        : clip(d.lastError, ERROR_CHARS);
  return html`<tr><td class="num">${d.id}</td><td>${utc(Date.parse(d.createdAt))}</td><td>${EVENT_LABEL[d.event]}</td><td>${d.ruleName}</td><td class="title">${card}</td><td>${d.webhookName} <code class="hint">${shownUrl(d.webhookUrl)}</code></td><td>${stateOf(d)}</td><td class="num">${d.attempts}</td><td>${last}</td><td>${d.nextAttemptAt === null ? '' : utc(Date.parse(d.nextAttemptAt))}</td></tr>
`;
}

function deliveriesTable(v: AlertsView): Html {
  const shown = v.deliveries.slice(0, DELIVERIES_PER_PAGE);
  if (shown.length === 0) return html`<p class="muted">Nothing delivered yet.</p>`;
  const older =
    v.deliveries.length > DELIVERIES_PER_PAGE
      ? html`<a rel="next" href="${base(v.project.id)}?before=${shown.at(-1)!.id}">Older →</a>`
      : '';
  const newest = v.before === undefined ? '' : html`<a href="${base(v.project.id)}">Newest</a>`;
  return html`<table class="deliveries"><thead><tr><th class="num">#</th><th>Raised</th><th>Event</th><th>Rule</th><th>Card</th><th>Receiver</th><th>State</th><th class="num">Attempts</th><th>Last answer</th><th>Next retry</th></tr></thead><tbody>
${shown.map((d) => deliveryRow(v, d))}</tbody></table>
<nav class="pages">${older}${newest}</nav>`;
}

/** A project's alerts page: webhooks, rules, the delivery log. */
export function alertsPage(v: AlertsView, csrf?: string): string {
  const notice = v.notice
    ? html`<p class="${v.notice.ok ? 'ok' : 'error'}" role="status">${v.notice.text}</p>`
    : '';
  const off = v.off
    ? html`<p class="error">Alerts are not delivered by this instance (started with alerts off).</p>`
    : '';
  return page({
    title: `Alerts · ${shortName(v.project.name)}`,
    csrf,
    body: html`<p class="crumbs"><a href="/board">Accounts</a> / ${shortName(v.project.accountName)} / <a href="/board/projects/${v.project.id}">${shortName(v.project.name)}</a></p>
<h1>Alerts</h1>
${off}${notice}
<h2>Webhooks</h2>
${webhooksTable(v, csrf)}
${webhookForm(v, csrf)}
<h2>Rules</h2>
${rulesTable(v, csrf)}
${ruleForm(v, csrf)}
<h2>Deliveries</h2>
${deliveriesTable(v)}`,
  });
}
