import { CARD_STATUSES, type CardStatus, RESOLVED_STATUS } from '../../accept/index.ts';
import type { CardEvent, FilteredCount } from '../../store/board-types.ts';
import { LIMITS } from '../../generated/limits.gen.ts';
import { clip, count, counted, time, utc } from '../format.ts';
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

/** The environment a form resolves in (the one viewed). */
const envField = (env: string) => html`<input type="hidden" name="env" value="${env}">`;

/**
 * One button per other status, each posting that status for this card (resolving resolves in the
 * environment viewed); and, for an open card, resolving in a release: the current one (the
 * newest the project has seen) or one typed in, from which on a report reopens it.
 */
export function statusForm(
  projectId: number,
  cardId: number,
  current: CardStatus,
  opts: { env: string; csrf?: string; releases: readonly string[]; currentRelease: string | null },
) {
  const action = `/board/projects/${projectId}/cards/${cardId}/status`;
  const buttons = CARD_STATUSES.filter((s) => s !== current).map(
    (s) =>
      html`<button type="submit" name="status" value="${s}"${s === RESOLVED_STATUS ? html` title="Resolve in ${opts.env}: a report from another environment leaves it resolved"` : ''}>${ACTION[s]}</button>`,
  );
  const options = opts.releases.map((r) => html`<option value="${r}"></option>`);
  const inRelease = html`<form class="status-form release-form" method="post" action="${action}">${csrfField(opts.csrf)}${envField(opts.env)}<input type="hidden" name="status" value="${RESOLVED_STATUS}"><label>Resolve in release <input name="release" list="releases-${cardId}" value="${opts.currentRelease ?? ''}" maxlength="${RELEASE_CHARS}" required placeholder="2.5.0"></label><datalist id="releases-${cardId}">${options}</datalist><button type="submit">Resolve in this release</button><span class="muted">only a report from it or a newer one reopens the card</span></form>`;
  return html`<form class="status-form" method="post" action="${action}">${csrfField(opts.csrf)}${envField(opts.env)}${buttons}</form>${inRelease}`;
}

/** The longest release name a tag can hold (`release:` and the name within a tag's limit). */
export const RELEASE_CHARS = LIMITS.tagMax - 'release:'.length;

/** `12`, or `1,000+` when counting stopped there. */
const shownCount = (c: FilteredCount) => `${count(c.count)}${c.atLeast ? '+' : ''}`;

/**
 * The status filter as tabs with counts: open, each status, all. The counts are the viewed
 * environment's, and follow the other filters when there are any (bounded: `1,000+`).
 */
export function statusTabs(
  projectId: number,
  view: CardsView,
  counts: Record<CardStatus, FilteredCount>,
) {
  const sum = (statuses: readonly CardStatus[]): FilteredCount => ({
    count: statuses.reduce((n, s) => n + counts[s].count, 0),
    atLeast: statuses.some((s) => counts[s].atLeast),
  });
  const total = (v: StatusView) =>
    v === 'all' ? sum(CARD_STATUSES) : v === 'open' ? sum(OPEN_STATUSES) : counts[v];
  const tabs = STATUS_VIEWS.map((v) => {
    const on = view.status === v;
    const href = cardsHref(projectId, view, { status: v, after: undefined, before: undefined });
    return html`<a href="${href}"${on ? html` class="on" aria-current="page"` : ''}>${VIEW_LABEL[v]} <span class="n">${shownCount(total(v))}</span></a>`;
  });
  return html`<nav class="statuses" aria-label="Status">${tabs}</nav>`;
}

/** The bulk action under the cards table: set every checked card to one status. */
export function bulkBar(back: string, env: string, csrf?: string): Html {
  const options = CARD_STATUSES.map((s) => html`<option value="${s}">${STATUS_LABEL[s]}</option>`);
  return html`<div class="bulk">${csrfField(csrf)}${envField(env)}<input type="hidden" name="back" value="${back}"><label>Set the checked cards to <select name="status">${options}</select></label> <button type="submit">Apply</button> <span class="muted">(resolving resolves in ${env})</span></div>`;
}

/** What a status change did, shown on the page it returns to. */
export interface Changed {
  status: CardStatus;
  /** Cards whose status changed. */
  changed: number;
  /** Cards asked for that already had it. */
  same: number;
}

/** The confirmation shown after a status change of the list's checked cards. */
export function changedNotice(c: Changed, env: string): Html {
  const where = c.status === RESOLVED_STATUS ? ` in ${env}` : '';
  const same =
    c.same === 0 ? '' : ` (${counted(c.same, 'card')} already ${c.same === 1 ? 'was' : 'were'})`;
  const text =
    c.changed === 0
      ? `Nothing changed: ${counted(c.same, 'card')} already ${c.same === 1 ? 'was' : 'were'} ${STATUS_LABEL[c.status]}${where}.`
      : `Set ${counted(c.changed, 'card')} to ${STATUS_LABEL[c.status]}${where}${same}.`;
  return html`<p class="notice" role="status">${text}</p>`;
}

/** How a regression's release was found to be the resolved one or newer. */
const ORDERING: Record<NonNullable<CardEvent['ordering']>, string> = {
  same: 'the release it was resolved in',
  semver: 'a newer release than it was resolved in, by semver',
  first_sight: 'a release first seen after the one it was resolved in',
};

/** A card's history, newest first. */
export function historyList(events: CardEvent[], now: number): Html {
  if (events.length === 0) return html`<p class="muted">No status changes yet.</p>`;
  const items = events.map((e) => {
    const when = time(e.at, now);
    if (e.kind === 'regression') {
      const release = e.release === null ? '' : html` in release <code>${e.release}</code>`;
      const env = e.env === null ? '' : html` from ${e.env}`;
      const ordering =
        e.ordering === null ? '' : html` <span class="muted">(${ORDERING[e.ordering]})</span>`;
      return html`<li>${when} · <span class="badge regressed">regressed</span> reported again${release}${env} after it was resolved${ordering}: ${STATUS_LABEL[e.from]} → ${STATUS_LABEL[e.to]}</li>`;
    }
    const resolved =
      e.to === RESOLVED_STATUS && (e.env !== null || e.release !== null)
        ? html` <span class="muted">in ${e.env ?? 'every environment'}${e.release === null ? '' : html`, from release <code>${e.release}</code> on`}</span>`
        : '';
    return html`<li>${when} · <strong>${e.actor === null ? 'someone' : clip(e.actor, ACTOR_CHARS)}</strong> set ${statusBadge(e.to)}${resolved} <span class="muted">(was ${STATUS_LABEL[e.from]})</span></li>`;
  });
  return html`<ol class="history">${items}</ol>`;
}
