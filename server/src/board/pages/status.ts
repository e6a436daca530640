import { CARD_STATUSES, type CardStatus, RESOLVED_STATUS } from '../../accept/index.ts';
import type { CardEvent } from '../../store/board-types.ts';
import { clip, count, time, utc } from '../format.ts';
import { type Html, html } from '../html.ts';
import {
  type CardsView,
  cardsHref,
  OPEN_STATUSES,
  STATUS_VIEWS,
  type StatusView,
} from '../query.ts';

// Triage on the board's pages: status badges and labels, the regression badge, the forms that
// set a status (each carries the session's form token), the status tabs and a card's history.

/** Characters of an actor's name (an admin token's) the history shows. */
const ACTOR_CHARS = 100;

export const STATUS_LABEL: Record<CardStatus, string> = {
  todo: 'To do',
  in_progress: 'In progress',
  done: 'Done',
  ignored: 'Ignored',
};
const VIEW_LABEL: Record<StatusView, string> = { open: 'Open', ...STATUS_LABEL, all: 'All' };
/** What the button that moves a card into each status says. */
const ACTION: Record<CardStatus, string> = {
  todo: 'Reopen',
  in_progress: 'Start',
  done: 'Resolve',
  ignored: 'Ignore',
};

export const statusBadge = (status: CardStatus) =>
  html`<span class="status st-${status}">${STATUS_LABEL[status]}</span>`;

/** Shown while a card that came back after a fix is still open. */
export function regressedBadge(
  c: { status: CardStatus; regressions: number },
  when: number | null,
) {
  if (c.regressions === 0 || c.status === RESOLVED_STATUS) return '';
  const last = when === null ? '' : `, last ${utc(when)}`;
  return html` <span class="badge regressed" title="Reported again after it was resolved: ${count(c.regressions)}×${last}">regressed${c.regressions > 1 ? html` ×${count(c.regressions)}` : ''}</span>`;
}

/** The form token field, for cookie sessions (a bearer client needs none). */
export const csrfField = (csrf: string | undefined) =>
  csrf === undefined ? '' : html`<input type="hidden" name="csrf" value="${csrf}">`;

/** One button per other status, each posting that status for this card. */
export function statusForm(projectId: number, cardId: number, current: CardStatus, csrf?: string) {
  const buttons = CARD_STATUSES.filter((s) => s !== current).map(
    (s) => html`<button type="submit" name="status" value="${s}">${ACTION[s]}</button>`,
  );
  return html`<form class="status-form" method="post" action="/board/projects/${projectId}/cards/${cardId}/status">${csrfField(csrf)}${buttons}</form>`;
}

/** The status filter as tabs with the project's counts: open, each status, all. */
export function statusTabs(projectId: number, view: CardsView, counts: Record<CardStatus, number>) {
  const sum = (statuses: readonly CardStatus[]) => statuses.reduce((n, s) => n + counts[s], 0);
  const total = (v: StatusView) =>
    v === 'all' ? sum(CARD_STATUSES) : v === 'open' ? sum(OPEN_STATUSES) : counts[v];
  const tabs = STATUS_VIEWS.map((v) => {
    const on = view.status === v;
    const href = cardsHref(projectId, view, { status: v, after: undefined, before: undefined });
    return html`<a href="${href}"${on ? html` class="on" aria-current="page"` : ''}>${VIEW_LABEL[v]} <span class="n">${count(total(v))}</span></a>`;
  });
  return html`<nav class="statuses" aria-label="Status">${tabs}</nav>`;
}

/** The bulk action under the cards table: set every checked card to one status. */
export function bulkBar(back: string, csrf?: string): Html {
  const options = CARD_STATUSES.map((s) => html`<option value="${s}">${STATUS_LABEL[s]}</option>`);
  return html`<div class="bulk">${csrfField(csrf)}<input type="hidden" name="back" value="${back}"><label>Set the checked cards to <select name="status">${options}</select></label> <button type="submit">Apply</button></div>`;
}

/** A card's history, newest first. */
export function historyList(events: CardEvent[], now: number): Html {
  if (events.length === 0) return html`<p class="muted">No status changes yet.</p>`;
  const items = events.map((e) => {
    const when = time(e.at, now);
    if (e.kind === 'regression') {
      const release = e.release === null ? '' : html` in release <code>${e.release}</code>`;
      return html`<li>${when} · <span class="badge regressed">regressed</span> reported again${release} after it was resolved: ${STATUS_LABEL[e.from]} → ${STATUS_LABEL[e.to]}</li>`;
    }
    return html`<li>${when} · <strong>${e.actor === null ? 'someone' : clip(e.actor, ACTOR_CHARS)}</strong> set ${statusBadge(e.to)} <span class="muted">(was ${STATUS_LABEL[e.from]})</span></li>`;
  });
  return html`<ol class="history">${items}</ol>`;
}
