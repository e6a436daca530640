import { LIMITS } from '../../generated/limits.gen.ts';
import type { BoardProjectPage, CardPage, CardSort, CardSummary } from '../../store/board-types.ts';
import { count, counted, time } from '../format.ts';
import { type Html, html } from '../html.ts';
import { page } from '../layout.ts';
import { type CardsView, cardsHref, encodeKey, PRIORITIES, SEVERITIES } from '../query.ts';
import { planName, shortName } from './overview.ts';
import { bulkBar, regressedBadge, statusBadge, statusTabs } from './status.ts';

type Project = BoardProjectPage;

const COLUMNS: [CardSort | undefined, string, string?][] = [
  [undefined, '', 'pick'],
  [undefined, 'Status'],
  ['severity', 'Severity'],
  ['priority', 'Priority'],
  ['title', 'Title'],
  [undefined, 'Tags'],
  ['count', 'Count', 'num'],
  ['first_seen', 'First seen'],
  ['last_seen', 'Last seen'],
  [undefined, 'Type'],
];

/** A column header; sortable ones link to their sort, toggling the direction when active. */
function header(project: number, view: CardsView, [sort, label, cls]: (typeof COLUMNS)[number]) {
  const klass = cls ? html` class="${cls}"` : '';
  if (!sort) return html`<th${klass}>${label}</th>`;
  const on = view.sort === sort;
  const dir = on ? (view.dir === 'desc' ? 'asc' : 'desc') : sort === 'title' ? 'asc' : 'desc';
  const aria = on ? html` aria-sort="${view.dir === 'desc' ? 'descending' : 'ascending'}"` : '';
  const arrow = on ? (view.dir === 'desc' ? ' ▼' : ' ▲') : '';
  return html`<th${klass}${aria}><a${on ? html` class="on"` : ''} href="${cardsHref(project, view, { sort, dir })}">${label}${arrow}</a></th>`;
}

const options = (values: readonly string[], selected: string | undefined) =>
  values.map(
    (v) => html`<option value="${v}"${v === selected ? html` selected` : ''}>${v}</option>`,
  );

function filters(project: number, view: CardsView): Html {
  return html`<form class="filters" method="get" action="/board/projects/${project}">
<input type="hidden" name="sort" value="${view.sort}"><input type="hidden" name="dir" value="${view.dir}"><input type="hidden" name="status" value="${view.status}">
<label>Severity<select name="severity"><option value="">any</option>${options(SEVERITIES, view.severity)}</select></label>
<label>Priority<select name="priority"><option value="">any</option>${options(PRIORITIES, view.priority)}</select></label>
<label>Tag<input name="tag" value="${view.tag ?? ''}" maxlength="200"></label>
<label>Title contains<input type="search" name="q" value="${view.q ?? ''}" maxlength="${LIMITS.titleMax}"></label>
<button type="submit">Filter</button> <a href="/board/projects/${project}">Clear</a>
</form>`;
}

/** Tags a row shows (a card keeps up to 200; its page has them all). */
const TAGS_IN_ROW = 3;

/**
 * A row's first tags, each a link to the current status view filtered by it alone (so a link's
 * length does not grow with the other filters), then how many more the card has.
 */
function rowTags(projectId: number, view: CardsView, c: CardSummary) {
  const base = { sort: view.sort, dir: view.dir, status: view.status };
  const links = c.tags
    .slice(0, TAGS_IN_ROW)
    .map((t) => html`<a class="tag" href="${cardsHref(projectId, { ...base, tag: t })}">${t}</a>`);
  const more = c.tags.length - TAGS_IN_ROW;
  return more > 0 ? html`${links}<span class="muted">+${count(more)}</span>` : links;
}

/**
 * One page of a project's cards: status tabs with counts, sortable columns, GET filters, keyset
 * Previous / Next, and a checkbox per row for the bulk status form around the table.
 */
export function cardsPage(
  project: Project,
  view: CardsView,
  result: CardPage,
  paging: { after: boolean; before: boolean; here: string },
  now: number,
  csrf?: string,
): string {
  const rows = result.cards.map(
    (
      c,
    ) => html`<tr><td class="pick"><input type="checkbox" name="card" value="${c.id}" aria-label="Select card #${c.id}"></td><td>${statusBadge(c.status)}${regressedBadge(c, c.lastRegressedAt)}</td><td><span class="badge sev-${c.severity}">${c.severity}</span></td><td class="pri-${c.priority}">${c.priority}</td><td class="title"><a href="/board/projects/${project.id}/cards/${c.id}">${c.title}</a></td><td>${rowTags(project.id, view, c)}</td><td class="num">${count(c.occurrenceCount)}</td><td>${time(c.firstSeenAt, now)}</td><td>${time(c.lastSeenAt, now)}</td><td class="muted">${c.descriptionType}</td></tr>
`,
  );
  const first = result.cards[0];
  const last = result.cards.at(-1);
  // A search that ran out of its budget goes on from the last card it examined, not the last shown.
  const resume = result.scan && encodeKey(result.scan.resumeAt);
  const nextKey = !paging.before && resume ? resume : last && encodeKey(last.key);
  const prevKey = paging.before && resume ? resume : first && encodeKey(first.key);
  const hasNext = paging.before || result.more;
  const hasPrev = paging.after || (paging.before && result.more);
  const more = (rel: 'next' | 'prev') =>
    result.scan && (rel === 'next') !== paging.before ? 'Continue searching' : undefined;
  const prev =
    hasPrev && prevKey
      ? html`<a rel="prev" href="${cardsHref(project.id, view, { before: prevKey })}">← ${more('prev') ?? 'Previous'}</a>`
      : '';
  const next =
    hasNext && nextKey
      ? html`<a rel="next" href="${cardsHref(project.id, view, { after: nextKey })}">${more('next') ?? 'Next'} →</a>`
      : '';
  const restart =
    paging.after || paging.before
      ? html`<a href="${cardsHref(project.id, view)}">First page</a>`
      : '';
  const filtered = view.severity || view.priority || view.tag || view.q;
  // The search stopped at its budget: say so, and that the link goes on from there.
  const searched = result.scan
    ? html`<p class="muted scan">Searched ${counted(result.scan.examined, 'card')} for these filters without filling the page: ${counted(result.cards.length, 'matching card')} so far. <em>Continue searching</em> goes on from the last card searched.</p>`
    : '';
  const table = rows.length
    ? html`<form class="bulk" method="post" action="/board/projects/${project.id}/cards/status">${bulkBar(paging.here, csrf)}
<table class="cards"><thead><tr>${COLUMNS.map((col) => header(project.id, view, col))}</tr></thead><tbody>
${rows}</tbody></table></form>`
    : result.scan
      ? ''
      : html`<p class="muted">${filtered || project.cards > 0 ? 'No cards match these filters.' : 'No cards on this board yet.'}</p>`;
  return page({
    title: shortName(project.name),
    csrf,
    body: html`<p class="crumbs"><a href="/board">Accounts</a> / ${shortName(project.accountName)}</p>
<h1>${shortName(project.name)}</h1>
<p><span class="state-${project.state}">${project.state}</span> · ${planName(project.plan)} plan · ${counted(project.cards, 'card')} · ${counted(project.eventsToday, 'event')} today · <a href="/board/projects/${project.id}/alerts">Alerts</a></p>
${statusTabs(project.id, view, project.statusCounts)}
${filters(project.id, view)}
${searched}${table}
<nav class="pages">${prev}${next}${restart}</nav>`,
  });
}
