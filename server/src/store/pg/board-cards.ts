import type pg from 'pg';
import { type BoardVariantRow, toBoardCard, toBoardVariant } from '../board-rows.ts';
import { listCardPage, SCAN_ROWS, type ScanLimits } from '../board-scan.ts';
import type { BoardStore } from '../board-types.ts';
import { cardReads, countCards } from '../cards-reads.ts';
import type { CardsDialect } from '../cards-sql.ts';
import { type SearchTerms, searchOf, tsQuery } from '../search.ts';
import type { CardRow } from '../rows.ts';
import type { PgDeadlineDb } from './pool.ts';
import { withoutNul } from './text.ts';

/** The cards page's SQL on PostgreSQL: `$n` placeholders, titles in byte order (as SQLite's). */
export const PG_CARDS: CardsDialect = {
  placeholder: (n) => `$${n}`,
  keyColumn: (field, column) => (field === 'title' ? `${column} COLLATE "C"` : column),
  statusLeads: () => true,
  // Filters and page keys come from the URL; text as the store keeps it (see text.ts).
  bind: (value) => (typeof value === 'string' ? withoutNul(value) : value),
  tag: (tags, tag, bind) => `${tags}::jsonb ? ${bind(tag)}`,
  // Checked row by row as the sort's index is walked (used when many cards match): a scalar
  // subquery, which the planner cannot turn into a join (as EXISTS it became a semi-join that read
  // every match through the GIN index and sorted them), inside a CASE, which the planner takes to
  // pass half the rows: as a bare `@@` it guessed 0.5 %, and under another filter (a severity)
  // read that filter's index whole and sorted (0.2 s on 100,000 cards) instead of walking the sort's.
  match: (id, terms, bind) =>
    `CASE WHEN (SELECT s.doc FROM card_search s WHERE s.card_id = ${id}) @@ ${tsQuery(terms, (v) => bind(withoutNul(v)))} THEN true ELSE false END`,
  matching: (terms, bind, limit) => {
    const n = bind(limit);
    const query = () => tsQuery(terms, (v) => bind(withoutNul(v)));
    // A common word: the first rows of the table hold enough matches (a few ms). Else the GIN
    // index, its query hidden from the planner (an InitPlan), which misjudges phrases (`topic-7`,
    // `handler.ts:42`) as common and would read and match every row instead (0.2-0.4 s).
    return `WITH sample AS MATERIALIZED (SELECT card_id FROM (SELECT card_id, doc FROM card_search
        LIMIT ${bind(limit * 2)}) AS first WHERE doc @@ ${query()} LIMIT ${n})
      SELECT card_id AS id FROM sample WHERE (SELECT count(*) FROM sample) >= ${n}
      UNION ALL
      (SELECT card_id FROM card_search WHERE doc @@ (SELECT ${query()})
        AND (SELECT count(*) FROM sample) < ${n} LIMIT ${n})`;
  },
  idIn: (id, list) =>
    `${id} IN (SELECT value::integer FROM jsonb_array_elements_text(${list}::jsonb))`,
  source: (env) => (env ? 'card_envs e JOIN cards c ON c.id = e.card_id' : 'cards'),
  // Each arm ordered too: only then does the planner merge the arms' index scans (Merge Append)
  // instead of sorting all their rows. And each arm limited (a whole number the store computed,
  // written in): without it the planner costs an arm as if all its rows were read, and for one
  // environment's cards (joined to their cards) picked a hash join of every row and a sort, 0.8 s
  // on 100,000 cards, over an index walk of the page's rows.
  ordered: (arms, order, armOrder, tail, armRows) =>
    `SELECT * FROM (${arms.map((arm) => `(${arm} ORDER BY ${armOrder} LIMIT ${Math.trunc(armRows)})`).join(' UNION ALL ')}) AS arms
     ORDER BY ${order} ${tail}`,
};

/** The search with its tsquery text made by the server (one short statement), or undefined. */
async function withTsQuery(
  run: <T>(sql: string, params: unknown[]) => Promise<T[]>,
  search: SearchTerms | undefined,
): Promise<SearchTerms | undefined> {
  if (search === undefined) return undefined;
  const params: string[] = [];
  const sql = tsQuery(search, (v) => {
    params.push(withoutNul(v));
    return `$${params.length}`;
  });
  const [row] = await run<{ q: string }>(`SELECT (${sql})::text AS q`, params);
  return { ...search, tsquery: row!.q };
}

type BoardCards = Pick<
  BoardStore,
  'listCards' | 'countCards' | 'getCard' | 'listVariants' | 'getVariant' | 'cardHours'
>;

const VARIANT_SQL = `SELECT id, title, substr(description, 1, $1) AS description,
    length(description) AS description_length, file_name, line_number, count, first_seen_at,
    last_seen_at, aggregate FROM variants WHERE card_id = $2`;

/** The board's cards, their variants and counts per hour on PostgreSQL. */
export function createPgBoardCards(db: PgDeadlineDb, scan?: ScanLimits): BoardCards {
  const all = <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
    db.query<T>(sql, values);
  const run = <T>(sql: string, params: unknown[]) => all(sql, params) as Promise<T[]>;
  return {
    listCards: async (projectId, query) =>
      listCardPage(
        cardReads(PG_CARDS, projectId, run),
        query,
        // One round trip per window: the whole budget in one (the event loop waits for nothing).
        { chunk: scan?.rows ?? SCAN_ROWS, ...scan },
        await withTsQuery(run, searchOf(projectId, query)),
      ),
    countCards: async (projectId, query) =>
      countCards(
        PG_CARDS,
        projectId,
        query,
        run,
        await withTsQuery(run, searchOf(projectId, query)),
      ),
    async getCard(projectId, cardId, day) {
      const [r] = await all<CardRow>('SELECT * FROM cards WHERE id = $1 AND project_id = $2', [
        cardId,
        projectId,
      ]);
      return r && toBoardCard(r, day);
    },
    listVariants: async (cardId, bodyChars) =>
      (
        await all<BoardVariantRow>(
          `${VARIANT_SQL} ORDER BY aggregate, last_seen_at DESC, id DESC`,
          [bodyChars, cardId],
        )
      ).map(toBoardVariant),
    async getVariant(cardId, variantId) {
      const [r] = await all<BoardVariantRow>(`${VARIANT_SQL} AND id = $3`, [
        1 << 30,
        cardId,
        variantId,
      ]);
      return r === undefined ? undefined : toBoardVariant(r);
    },
    async cardHours(cardId, fromHour, toHour) {
      const counts = new Array<number>(Math.max(0, toHour - fromHour + 1)).fill(0);
      const rows = await all<{ hour: number; count: number }>(
        'SELECT hour, count FROM card_hours WHERE card_id = $1 AND hour BETWEEN $2 AND $3',
        [cardId, fromHour, toHour],
      );
      for (const r of rows) counts[r.hour - fromHour] = r.count;
      return counts;
    },
  };
}
