import type { CardStatus } from '../../accept/index.ts';
import { LIMITS } from '../../generated/limits.gen.ts';
import type {
  BoardEnvironment,
  BoardProjectPage,
  CardPage,
  CardSort,
  CardSummary,
  FilteredCount,
} from '../../store/board-types.ts';
import { CARD_SORTS } from '../../store/board-types.ts';
import { count, counted, place, time } from '../format.ts';
import { type Html, html } from '../html.ts';
import { page } from '../layout.ts';
import { type CardsView, cardsHref, encodeKey, PRIORITIES, SEVERITIES } from '../query.ts';
import { envSwitch } from './environments.ts';
import { planName, shortName } from './overview.ts';
import { bulkBar, regressedBadge, statusBadge, statusTabs } from './status.ts';

type Project = BoardProjectPage;

/** What a cards page shows beside its rows. */
export interface CardsPageParts {
  /** The project's environments (the switcher). */
  environments: readonly BoardEnvironment[];
  /** The status tabs' counts: the environment's, filtered when the view has filters. */
  counts: Record<CardStatus, FilteredCount>;
  paging: { after: boolean; before: boolean; here: string };
  now: number;
  csrf?: string;
  /** A confirmation of what the last change did. */
  notice?: Html;
}

const SORT_LABEL: Record<CardSort, string> = {
  last_seen: 'Last seen',
  first_seen: 'First seen',
  count: 'Count',
  severity: 'Severity',
  priority: 'Priority',
  title: 'Title',
};

const COLUMNS: [CardSort | undefined, string, string?][] = [
  [undefined, '', 'pick'],
  [undefined, 'Status'],
  ['severity', 'Severity'],
  ['priority', 'Priority'],
  ['title', 'Title'],
  [undefined, 'Location', 'where'],
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
  const sorts = CARD_SORTS.map(
    (s) =>
      html`<option value="${s}"${s === view.sort ? html` selected` : ''}>${SORT_LABEL[s]}</option>`,
  );
  const dirs = (['desc', 'asc'] as const).map(
    (d) =>
      html`<option value="${d}"${d === view.dir ? html` selected` : ''}>${d === 'desc' ? 'descending' : 'ascending'}</option>`,
  );
  const clear = cardsHref(project, {
    env: view.env,
    sort: view.sort,
    dir: view.dir,
    status: view.status,
  });
  return html`<form class="filters" method="get" action="/board/projects/${project}">
<input type="hidden" name="env" value="${view.env}"><input type="hidden" name="status" value="${view.status}">
<label>Search<input type="search" name="q" value="${view.q ?? ''}" maxlength="${LIMITS.titleMax}" placeholder="words in the title, stack, file or tags" size="30"></label>
<label>Severity<select name="severity"><option value="">any</option>${options(SEVERITIES, view.severity)}</select></label>
<label>Priority<select name="priority"><option value="">any</option>${options(PRIORITIES, view.priority)}</select></label>
<label>Tag<input name="tag" value="${view.tag ?? ''}" maxlength="200"></label>
<label>Sort by<select name="sort">${sorts}</select></label>
<label>Order<select name="dir">${dirs}</select></label>
<button type="submit">Apply</button> <a href="${clear}">Clear filters</a>
</form>`;
}

/** Path characters the location column shows (its end: the file's name). */
const PLACE_CHARS = 48;

/** A row's location: the file and line (the line from the stack when the report sent none). */
function location(c: CardSummary) {
  if (c.fileName === null) return html`<span class="muted">–</span>`;
  const whole = place(c.fileName, c.lineNumber);
  const shown = whole.length > PLACE_CHARS ? `…${whole.slice(-(PLACE_CHARS - 1))}` : whole;
  return html`<code title="${whole}">${shown}</code>`;
}

/** Tags a row shows (a card keeps up to 200; its page has them all). */
const TAGS_IN_ROW = 3;

/**
 * A row's first tags, each a link to the current status view filtered by it alone (so a link's
 * length does not grow with the other filters), then how many more the card has.
 */
function rowTags(projectId: number, view: CardsView, c: CardSummary) {
  const base = { env: view.env, sort: view.sort, dir: view.dir, status: view.status };
  const links = c.tags
    .slice(0, TAGS_IN_ROW)
    .map((t) => html`<a class="tag" href="${cardsHref(projectId, { ...base, tag: t })}">${t}</a>`);
  const more = c.tags.length - TAGS_IN_ROW;
  return more > 0 ? html`${links}<span class="muted">+${count(more)}</span>` : links;
}

/**
 * One page of a project's cards in one environment: the environment switcher, status tabs with
 * counts, sortable columns, GET filters and search, keyset Previous / Next, and a checkbox per row
 * for the bulk status form around the table. Counts, first and last seen are the environment's.
 */
export function cardsPage(
  project: Project,
  view: CardsView,
  result: CardPage,
  parts: CardsPageParts,
): string {
  const { paging, now, csrf } = parts;
  const card = (id: number) =>
    `/board/projects/${project.id}/cards/${id}?${new URLSearchParams({ env: view.env })}`;
  const rows = result.cards.map(
    (
      c,
    ) => html`<tr><td class="pick"><input type="checkbox" name="card" value="${c.id}" aria-label="Select card #${c.id}"></td><td>${statusBadge(c.status)}${regressedBadge(c, c.lastRegressedAt)}</td><td><span class="badge sev-${c.severity}">${c.severity}</span></td><td class="pri-${c.priority}">${c.priority}</td><td class="title"><a href="${card(c.id)}">${c.title}</a></td><td class="where">${location(c)}</td><td>${rowTags(project.id, view, c)}</td><td class="num">${count(c.occurrenceCount)}</td><td>${time(c.firstSeenAt, now)}</td><td>${time(c.lastSeenAt, now)}</td><td class="muted">${c.descriptionType}</td></tr>
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
    ? html`<form class="bulk" method="post" action="/board/projects/${project.id}/cards/status">${bulkBar(paging.here, view.env, csrf)}
<table class="cards"><thead><tr>${COLUMNS.map((col) => header(project.id, view, col))}</tr></thead><tbody>
${rows}</tbody></table></form>`
    : result.scan
      ? ''
      : html`<p class="muted">${emptyText(project, view, parts, !!filtered)}</p>`;
  return page({
    title: shortName(project.name),
    csrf,
    body: html`<p class="crumbs"><a href="/board">Accounts</a> / ${shortName(project.accountName)}</p>
<h1>${shortName(project.name)}</h1>
<p><span class="state-${project.state}">${project.state}</span> · ${planName(project.plan)} plan · ${counted(project.cards, 'card')} in all environments · ${counted(project.eventsToday, 'event')} today · <a href="/board/projects/${project.id}/alerts">Alerts</a></p>
${envSwitch(project.id, view, parts.environments)}
${parts.notice ?? ''}${statusTabs(project.id, view, parts.counts)}
${filters(project.id, view)}
${searched}${table}
<nav class="pages">${prev}${next}${restart}</nav>`,
  });
}

/** Why a page has no rows: its filters, or no report from the environment (yet). */
function emptyText(project: Project, view: CardsView, parts: CardsPageParts, filtered: boolean) {
  const inEnv = Object.values(parts.counts).reduce((n, c) => n + c.count, 0);
  if (filtered || inEnv > 0) return 'No cards match these filters.';
  if (project.cards === 0) return 'No cards on this board yet.';
  return `No cards from ${view.env}: no report from there yet. Other environments have some (above).`;
}
