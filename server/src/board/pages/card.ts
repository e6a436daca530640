import { detectDescriptionType } from '../../core/detect.ts';
import type {
  BoardCard,
  BoardProject,
  BoardVariant,
  CardEvent,
  CardInEnvironment,
} from '../../store/board-types.ts';
import { lineIn } from '../../store/board-rows.ts';
import type { RawReport } from '../../store/sourcemap-types.ts';
import type { FrameNote } from '../../sourcemaps/rewrite.ts';
import { renderWithin } from '../description.ts';
import { count, counted, place, time, utc } from '../format.ts';
import { type Html, html } from '../html.ts';
import { page } from '../layout.ts';
import { cardsHref } from '../query.ts';
import { sparkline } from '../svg.ts';
import { shortName } from './overview.ts';
import { type CodeView, codeBlock, rawFrames } from './mapped.ts';
import { historyList, regressedBadge, statusBadge, statusForm } from './status.ts';
import { variantDiff } from './variant-diff.ts';

type Project = BoardProject & { accountName: string };

// Every block of a card page is bounded in bytes, whatever the reports hold: the description up
// to 256 kB of HTML (the rest as plain text at description.txt), each variant's body up to 12 kB
// (the whole one on its own page), differing lines clipped, the latest history entries (all of
// them on the history page), names clipped. The worst case is tested (test/board/page-bytes).

/** HTML bytes of a description on the card and variant pages. */
export const DESCRIPTION_BYTES = 256 * 1024;
/** HTML bytes of each variant's body on the card page. */
export const VARIANT_BYTES = 12 * 1024;
/** History entries the card page shows; the history page has them all, 100 a page. */
export const HISTORY_ON_CARD = 20;

const cardHref = (card: BoardCard) => `/board/projects/${card.projectId}/cards/${card.id}`;

/** A body within `maxBytes`, and a link to the whole text when it was cut (`length`: its length). */
function body(text: string | null, length: number, maxBytes: number, whole: string, what: string) {
  const shown = renderWithin(text, detectDescriptionType(text), maxBytes);
  const cut = shown.shown < length;
  const note = cut
    ? html`<p class="muted">Showing ${count(shown.shown)} of ${count(length)} characters. <a href="${whole}">${what}</a></p>`
    : '';
  return html`${shown.html}${note}`;
}

/** What a card or variant shows of where its report happened. */
type Located = Pick<BoardCard, 'fileName' | 'lineNumber' | 'description'>;

/** The file and line, as the cards list shows them: the report's line, else the file's in the stack. */
const where = (r: Located) =>
  r.fileName === null ? '' : place(r.fileName, r.lineNumber ?? lineIn(r.description, r.fileName));

const located = (r: Located) => (r.fileName === null ? '' : html` · <code>${where(r)}</code>`);

const seen = (first: number, last: number, now: number) =>
  html`first ${time(first, now)}, last ${time(last, now)}`;

const crumbs = (project: Project, tail: Html) =>
  html`<p class="crumbs"><a href="/board">Accounts</a> / ${shortName(project.accountName)} / <a href="/board/projects/${project.id}">${shortName(project.name)}</a> / ${tail}</p>`;

function variantBlock(v: BoardVariant, card: BoardCard, now: number, open: boolean): Html {
  if (v.aggregate) {
    return html`<div class="variant aggregate"><strong>Other variants</strong> · ${counted(v.count, 'report')} · ${seen(v.firstSeenAt, v.lastSeenAt, now)} <span class="muted">· pruned variants, counted without their bodies</span></div>`;
  }
  const href = `${cardHref(card)}/variants/${v.id}`;
  const title =
    v.title !== null && v.title !== card.title
      ? html` · <span class="title">${v.title}</span>`
      : '';
  const diff = variantDiff(card, v);
  return html`<details class="variant"${open ? html` open` : ''}><summary><strong>${counted(v.count, 'report')}</strong> · ${seen(v.firstSeenAt, v.lastSeenAt, now)}${located(v)}${title}${diff.summary}</summary>
${diff.body}
${body(v.description, v.descriptionLength, VARIANT_BYTES, href, 'The whole body')}</details>
`;
}

/** What a card page shows of the environment viewed, and how the card can be resolved. */
export interface CardPageOpts {
  now: number;
  variantCap: number;
  csrf?: string;
  /** The environment viewed: its counts, first and last seen, and events per hour are shown. */
  env: string;
  /** The card's reports per environment. */
  environments: readonly CardInEnvironment[];
  /** The project's releases, the one first seen last first (offered to resolve in). */
  releases: readonly string[];
  /** The newest of them (`newestRelease`), proposed. */
  currentRelease: string | null;
  /** What source maps add: the code around the top own frame, the raw frames' page. */
  mapped?: { code?: CodeView; rawHref: string };
}

/** The card's environments, each a link to the card in it; the one viewed marked. */
function environmentsOf(card: BoardCard, opts: CardPageOpts) {
  if (opts.environments.length === 0) return html`<span class="muted">none</span>`;
  return opts.environments.map((e) => {
    const href = `${cardHref(card)}?${new URLSearchParams({ env: e.env })}`;
    const label = html`${e.env} <span class="muted">(${count(e.occurrenceCount)})</span>`;
    return e.env === opts.env
      ? html`<strong class="env on">${label}</strong> `
      : html`<a class="env" href="${href}">${label}</a> `;
  });
}

/** Occurrences, first and last seen in the environment viewed (the card's, when it has none). */
function seenIn(card: BoardCard, opts: CardPageOpts): Html {
  const { now, env } = opts;
  const here = opts.environments.find((e) => e.env === env);
  if (!here) {
    return html`<dt>Occurrences</dt><dd>none from ${env} · ${count(card.occurrenceCount)} in all environments (${count(card.eventsToday)} today)</dd>
<dt>First seen</dt><dd>${utc(card.firstSeenAt)} (${time(card.firstSeenAt, now)}), not in ${env}</dd>
<dt>Last seen</dt><dd>${utc(card.lastSeenAt)} (${time(card.lastSeenAt, now)}), not in ${env}</dd>`;
  }
  return html`<dt>Occurrences</dt><dd>${count(here.occurrenceCount)} in ${env} · ${count(card.occurrenceCount)} in all environments (${count(card.eventsToday)} today)</dd>
<dt>First seen</dt><dd>${utc(here.firstSeenAt)} (${time(here.firstSeenAt, now)}) in ${env}</dd>
<dt>Last seen</dt><dd>${utc(here.lastSeenAt)} (${time(here.lastSeenAt, now)}) in ${env}</dd>`;
}

/**
 * A card in the environment viewed: its status with the buttons that change it (resolving in
 * that environment, or from a release on), its facts, counts and events per hour there, the
 * description by type, its variants (each with the parts that differ from the first report) and
 * its history.
 */
export function cardPage(
  project: Project,
  card: BoardCard,
  variants: BoardVariant[],
  hours: { perHour: number[]; lastHour: number },
  history: CardEvent[],
  opts: CardPageOpts,
): string {
  const { now } = opts;
  const kept = variants.filter((v) => !v.aggregate).length;
  const last24 = hours.perHour.reduce((a, b) => a + b, 0);
  const tags = card.tags.length
    ? card.tags.map(
        (t) =>
          html`<a class="tag" href="${cardsHref(project.id, { env: opts.env, sort: 'last_seen', dir: 'desc', status: 'all', tag: t })}">${t}</a>`,
      )
    : html`<span class="muted">none</span>`;
  const resolving = {
    env: opts.env,
    csrf: opts.csrf,
    releases: opts.releases,
    currentRelease: opts.currentRelease,
  };
  return page({
    title: card.title,
    csrf: opts.csrf,
    body: html`${crumbs(project, html`card #${card.id}`)}
<h1>${card.title}</h1>
<dl class="meta">
<dt>Severity</dt><dd><span class="badge sev-${card.severity}">${card.severity}</span></dd>
<dt>Priority</dt><dd class="pri-${card.priority}">${card.priority}</dd>
<dt>Status</dt><dd>${statusBadge(card.status)}${regressedBadge(card, card.lastRegressedAt)} ${statusForm(project.id, card.id, card.status, resolving)}</dd>
${card.regressions === 0 ? '' : html`<dt>Regressions</dt><dd>${count(card.regressions)}${regressedWhen(card, history, now)}</dd>`}
<dt>Environments</dt><dd>${environmentsOf(card, opts)}</dd>
${seenIn(card, opts)}
${card.fileName === null ? '' : html`<dt>Location</dt><dd><code>${where(card)}</code></dd>`}
<dt>Tags</dt><dd>${tags}</dd>
</dl>
<h2>Events per hour in ${opts.env}, last 24 h <span class="muted">(UTC, ${counted(last24, 'event')})</span></h2>
${sparkline(hours.perHour, hours.lastHour)}
<h2>Description <span class="muted">(${card.descriptionType})</span></h2>
${description(card)}
${opts.mapped ? codeBlock(opts.mapped.code, opts.mapped.rawHref) : ''}
<h2>Variants <span class="muted">(${kept} kept, at most ${opts.variantCap}; the rest are counted in Other variants)</span></h2>
<p class="muted">Each variant shows the parts that differ from the first report: in a changed line only the words that changed (first report → variant), other lines it adds (+) or lacks (−).</p>
${variants.length ? variants.map((v, i) => variantBlock(v, card, now, i === 0)) : html`<p class="muted">No variants.</p>`}
<h2>History</h2>
${historyList(history.slice(0, HISTORY_ON_CARD), now)}
${history.length > HISTORY_ON_CARD ? html`<p><a href="${cardHref(card)}/history">The whole history →</a></p>` : ''}`,
  });
}

/** The card's description by its type, within DESCRIPTION_BYTES; the whole text at description.txt. */
function description(card: BoardCard): Html {
  const text = card.description;
  const shown = renderWithin(text, card.descriptionType, DESCRIPTION_BYTES);
  if (text === null || shown.shown === text.length) return shown.html;
  return html`${shown.html}<p class="muted">Showing ${count(shown.shown)} of ${count(text.length)} characters. <a href="${cardHref(card)}/description.txt">The whole description as text</a></p>`;
}

/** ` (last 2026-11-22 10:00:00 UTC, 3 h ago, release 2.4.2)` from the latest regression. */
function regressedWhen(card: BoardCard, history: CardEvent[], now: number) {
  if (card.lastRegressedAt === null) return '';
  const release = history.find((e) => e.kind === 'regression')?.release;
  return html` <span class="muted">(last ${utc(card.lastRegressedAt)}, ${time(card.lastRegressedAt, now)}${release ? html`, release <code>${release}</code>` : ''})</span>`;
}

/** One variant with its body (within DESCRIPTION_BYTES; the whole text at body.txt). */
export function variantPage(
  project: Project,
  card: BoardCard,
  v: BoardVariant,
  now: number,
  csrf?: string,
): string {
  const href = `${cardHref(card)}/variants/${v.id}`;
  const tail = html`<a href="${cardHref(card)}">card #${card.id}</a> / variant #${v.id}`;
  return page({
    title: `Variant of ${card.title}`,
    csrf,
    body: html`${crumbs(project, tail)}
<h1>${v.title ?? card.title}</h1>
<p>${counted(v.count, 'report')} · ${seen(v.firstSeenAt, v.lastSeenAt, now)}${located(v)}</p>
${body(v.description, v.descriptionLength, DESCRIPTION_BYTES, `${href}/body.txt`, 'The whole body as text')}`,
  });
}

/** A card's (or a variant's) report as the SDK sent it, with what became of each frame. */
export function rawPage(
  project: Project,
  card: BoardCard,
  variant: BoardVariant | undefined,
  raw: RawReport,
  csrf?: string,
): string {
  const at = variant
    ? html` / <a href="${cardHref(card)}/variants/${variant.id}">variant #${variant.id}</a>`
    : '';
  const tail = html`<a href="${cardHref(card)}">card #${card.id}</a>${at} / as sent`;
  return page({
    title: `As sent: ${card.title}`,
    csrf,
    body: html`${crumbs(project, tail)}
<h1>${variant?.title ?? card.title}</h1>
<p class="muted">The report as the SDK sent it, before the build's source maps mapped it. Each frame says where it was mapped, or why it was not.</p>
${rawFrames(raw, JSON.parse(raw.notes) as FrameNote[], DESCRIPTION_BYTES)}`,
  });
}
