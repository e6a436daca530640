import type { BoardCard, BoardProject, CardEvent } from '../../store/board-types.ts';
import { html } from '../html.ts';
import { page } from '../layout.ts';
import { shortName } from './overview.ts';
import { historyList } from './status.ts';

/** History entries per page of a card's history. */
export const HISTORY_PER_PAGE = 100;

/**
 * A card's whole history, newest first, a page at a time by keyset on the entry id (`?before=ID`:
 * the entries older than it), so any card's history is served in bounded pages.
 */
export function historyPage(
  project: BoardProject & { accountName: string },
  card: BoardCard,
  events: CardEvent[],
  paging: { before: boolean; more: boolean },
  now: number,
  csrf?: string,
): string {
  const cardHref = `/board/projects/${project.id}/cards/${card.id}`;
  const older =
    paging.more && events.length
      ? html`<a rel="next" href="${cardHref}/history?before=${events.at(-1)!.id}">Older →</a>`
      : '';
  const newest = paging.before ? html`<a href="${cardHref}/history">Newest</a>` : '';
  return page({
    title: `History of ${card.title}`,
    csrf,
    body: html`<p class="crumbs"><a href="/board">Accounts</a> / ${shortName(project.accountName)} / <a href="/board/projects/${project.id}">${shortName(project.name)}</a> / <a href="${cardHref}">card #${card.id}</a> / history</p>
<h1>${card.title}</h1>
<h2>History</h2>
${historyList(events, now)}
<nav class="pages">${newest}${older}</nav>`,
  });
}
