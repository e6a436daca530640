import { toSummary, type SummaryRow } from './board-rows.ts';
import type { CardPage, CardQuery, SortKey } from './board-types.ts';
import { type CardsDialect, indexBounded, keyOf } from './cards-sql.ts';
import { SEARCH_IDS, type SearchTerms, searchWords } from './search.ts';

// A cards page under a filter the sort's index does not hold (a tag, title text, a severity or
// priority under another sort, a status where the index is not led by it) reads rows one by one, and a filter few cards pass would read the
// whole project. So it reads a bounded window: the next `chunk` keys of the index range (the
// index alone), then the filtered rows within them, window after window, until the page is full,
// the range ends, or `rows` keys (or `ms` milliseconds) are spent. It then answers with what it
// found and `resumeAt`, the last key it examined, from where the next request goes on searching.
// A search (words, or a tag's words) first asks the full-text index which cards match: when they
// are few (`SEARCH_IDS`), the page is read among them by id and sorted, whatever their places in
// the sort's index; when many match (search words), the sort's index is read in one statement,
// each row's id looked up among the matches, up to the page's end (a tag alone: bounded windows).

export interface ScanLimits {
  /** Keys one request examines at most. @default 20000 */
  rows?: number;
  /** Keys per window; between windows the event loop is free (SQLite). @default 1000 */
  chunk?: number;
  /** Past this time no further window starts. @default 100 */
  ms?: number;
  /** Cards a search may match and still be read by id (else the index is scanned). @default SEARCH_IDS */
  ids?: number;
}

/** How a store reads (the queries of cards-sql.ts in its dialect). */
export interface ScanReads {
  dialect: CardsDialect;
  /**
   * Filtered rows after the query's cursor, up to `to` (inclusive) when given; `search`: its words
   * checked row by row too.
   */
  page(
    q: CardQuery,
    limit: number,
    to?: SortKey,
    search?: SearchTerms,
  ): SummaryRow[] | Promise<SummaryRow[]>;
  /** Ids of the project's cards a search matches, at most `limit`, in no order. */
  matches(search: SearchTerms, limit: number): number[] | Promise<number[]>;
  /** The query's page among these cards (all of its filters checked), in its order. */
  byIds(q: CardQuery, ids: readonly number[], limit: number): SummaryRow[] | Promise<SummaryRow[]>;
  /** The key `offset` + 1 rows after the query's cursor (index only), if there is one. */
  edge(q: CardQuery, offset: number): SortKey | undefined | Promise<SortKey | undefined>;
  /** Lets other work run between windows. */
  pause?(): Promise<void>;
  now?(): number;
}

export const SCAN_ROWS = 20_000;

/** One cards page: from the index alone when it holds every filter, else by bounded windows. */
export async function listCardPage(
  reads: ScanReads,
  query: CardQuery,
  limits: ScanLimits = {},
  search?: SearchTerms,
): Promise<CardPage> {
  // Search text without a word (`%`, `--`) matches every card: no filter.
  const q = searchWords(query.text).length > 0 ? query : { ...query, text: undefined };
  const backwards = q.before !== undefined;
  const answer = (rows: SummaryRow[], more: boolean, scan?: CardPage['scan']): CardPage => {
    const page = rows.slice(0, q.limit);
    if (backwards) page.reverse();
    return { cards: page.map((r) => toSummary(r, keyOf(q.sort, r))), more, scan };
  };
  if (q.statuses?.length === 0) return answer([], false);
  if (search) {
    const cutoff = limits.ids ?? SEARCH_IDS;
    const ids = await reads.matches(search, cutoff + 1);
    if (ids.length <= cutoff) {
      const rows = ids.length === 0 ? [] : await reads.byIds(q, ids, q.limit + 1);
      return answer(rows, rows.length > q.limit);
    }
    // Many cards match: the sort's index is read in order, each row's id looked up among the
    // matches, in one statement that stops at the page's last row (a match costs a lookup, so no
    // window or budget is needed; it reads as far as the page needs).
    if (q.text !== undefined) {
      const rows = await reads.page(q, q.limit + 1, undefined, search);
      return answer(rows, rows.length > q.limit);
    }
  }
  if (indexBounded(reads.dialect, q)) {
    const rows = await reads.page(q, q.limit + 1);
    return answer(rows, rows.length > q.limit);
  }
  const { rows: budget = SCAN_ROWS, chunk = 1000, ms = 100 } = limits;
  const now = reads.now ?? (() => performance.now());
  const started = now();
  const found: SummaryRow[] = [];
  let cursor = q.after ?? q.before;
  let examined = 0;
  for (;;) {
    const window = Math.max(1, Math.min(chunk, budget - examined));
    const from = {
      ...q,
      after: backwards ? undefined : cursor,
      before: backwards ? cursor : undefined,
    };
    const edge = await reads.edge(from, window - 1);
    found.push(...(await reads.page(from, q.limit + 1 - found.length, edge)));
    if (found.length > q.limit) return answer(found, true);
    if (edge === undefined) return answer(found, false);
    examined += window;
    cursor = edge;
    if (examined >= budget || now() - started >= ms) {
      return answer(found, true, { examined, resumeAt: edge });
    }
    await reads.pause?.();
  }
}
