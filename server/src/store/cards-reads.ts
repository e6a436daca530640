import { CARD_STATUSES, type CardStatus } from '../accept/index.ts';
import type { SummaryRow } from './board-rows.ts';
import type { ScanReads } from './board-scan.ts';
import type { CardQuery, FilteredCount, SortKey } from './board-types.ts';
import { type CardsDialect, cardsSql, inOrderOf, KEY_FIELDS, summariesSql } from './cards-sql.ts';
import { SEARCH_IDS, type SearchTerms } from './search.ts';

/** Filtered cards of a status counted at most (the tab then says "1,000+"). */
export const COUNT_BOUND = 1000;

/** Runs one statement of a board store (SQLite synchronously, PostgreSQL not). */
export type RunRows = <T>(sql: string, params: (string | number)[]) => T[] | Promise<T[]>;

const then = <T, U>(value: T | Promise<T>, f: (v: T) => U | Promise<U>): U | Promise<U> =>
  value instanceof Promise ? value.then(f) : f(value);

/** The reads a cards page makes (board-scan.ts), in a store's dialect, over its `run`. */
export function cardReads(
  d: CardsDialect,
  projectId: number,
  run: RunRows,
  pause?: () => Promise<void>,
): ScanReads {
  return {
    dialect: d,
    pause,
    page(q, limit, to, search) {
      const { sql, params } = cardsSql(d, projectId, q, { limit, to, search });
      return run<SummaryRow>(sql, params);
    },
    edge(q, offset) {
      const { sql, params } = cardsSql(d, projectId, q, { limit: 1, offset, keysOnly: true });
      return then(run<SummaryRow>(sql, params), ([row]) =>
        row ? (KEY_FIELDS[q.sort].map((f) => row[f]) as SortKey) : undefined,
      );
    },
    matches(search, limit) {
      const params: (string | number)[] = [];
      const bind = (value: string | number) => {
        params.push(value);
        return d.placeholder(params.length);
      };
      const sql = d.matching(search, bind, limit);
      return then(run<{ id: number }>(sql, params), (rows) => rows.map((r) => Number(r.id)));
    },
    byIds(q, ids, limit) {
      const keys = cardsSql(d, projectId, q, { limit, ids, keys: true });
      return then(run<SummaryRow>(keys.sql, keys.params), (page) => {
        const order = page.map((r) => r.id);
        if (order.length === 0) return [];
        const rows = summariesSql(d, order, q.env);
        return then(run<SummaryRow>(rows.sql, rows.params), (found) => inOrderOf(order, found));
      });
    },
  };
}

/**
 * The cards of each status passing the query's filters, each count bounded (`COUNT_BOUND`); a
 * search's cards are counted among the ids the index gives (all of them when few, else the first
 * `SEARCH_IDS`, and the counts are then lower bounds).
 */
export async function countCards(
  d: CardsDialect,
  projectId: number,
  q: CardQuery,
  run: RunRows,
  search: SearchTerms | undefined,
): Promise<Record<CardStatus, FilteredCount>> {
  const counts = Object.fromEntries(
    CARD_STATUSES.map((s) => [s, { count: 0, atLeast: false }]),
  ) as Record<CardStatus, FilteredCount>;
  const query: CardQuery = { ...q, statuses: undefined, after: undefined, before: undefined };
  if (search) {
    const found = await cardReads(d, projectId, run).matches(search, SEARCH_IDS + 1);
    if (found.length === 0) return counts;
    const ids = found.slice(0, SEARCH_IDS);
    // The cards among them that pass the other filters, counted by status in one statement.
    const { sql, params } = cardsSql(d, projectId, query, {
      limit: ids.length,
      keys: true,
      status: true,
      ids,
    });
    const rows = await run<{ status: CardStatus; n: number }>(
      `SELECT status, COUNT(*) AS n FROM (${sql}) AS passed GROUP BY status`,
      params,
    );
    for (const r of rows) counts[r.status] = { count: Number(r.n), atLeast: false };
    if (found.length > SEARCH_IDS) for (const s of CARD_STATUSES) counts[s].atLeast = true;
    return counts;
  }
  for (const status of CARD_STATUSES) {
    const { sql, params } = cardsSql(
      d,
      projectId,
      { ...query, statuses: [status] },
      {
        limit: COUNT_BOUND + 1,
        keys: true,
      },
    );
    const [row] = await run<{ n: number }>(`SELECT COUNT(*) AS n FROM (${sql}) AS counted`, params);
    const n = Number(row!.n);
    counts[status] = { count: Math.min(n, COUNT_BOUND), atLeast: n > COUNT_BOUND };
  }
  return counts;
}
