import { type BoardVariantRow, toBoardCard, toBoardVariant } from '../board-rows.ts';
import { listCardPage, type ScanLimits } from '../board-scan.ts';
import type { BoardStore } from '../board-types.ts';
import { cardReads, countCards } from '../cards-reads.ts';
import type { CardsDialect } from '../cards-sql.ts';
import { ftsQuery, searchOf } from '../search.ts';
import type { CardRow } from '../rows.ts';
import type { Prepared } from './statements.ts';

/** The cards page's SQL on SQLite: `?` placeholders, a compound select merged in key order. */
export const SQLITE_CARDS: CardsDialect = {
  placeholder: () => '?',
  keyColumn: (_field, column) => column,
  // Titles of all environments sort by deduplication's index (project_id, title): no second index
  // of random titles. One environment's rows have a title index led by the status.
  statusLeads: (sort, env) => env || sort !== 'title',
  bind: (value) => value,
  // instr() on the stored JSON (written by JSON.stringify) is a cheap pre-filter; json_each()
  // confirms an exact element.
  tag: (tags, tag, bind) =>
    `instr(${tags}, ${bind(JSON.stringify(tag))}) > 0 AND EXISTS (SELECT 1 FROM json_each(${tags}) WHERE value = ${bind(tag)})`,
  // The matching ids are read once per statement (FTS5 merges each word's list in C, a few ms for
  // 100,000 cards) and each row's id looked up in them (`+`: the list never drives the walk, the
  // sort's index does). Asking FTS5 row by row costs a merge of the words' lists per row.
  match: (id, terms, bind) =>
    `+${id} IN (SELECT rowid FROM cards_search WHERE cards_search MATCH ${bind(ftsQuery(terms))})`,
  matching: (terms, bind, limit) =>
    `SELECT rowid AS id FROM cards_search WHERE cards_search MATCH ${bind(ftsQuery(terms))} LIMIT ${bind(limit)}`,
  idIn: (id, list) => `${id} IN (SELECT value FROM json_each(${list}))`,
  // By id: no sort index (it would walk every card of the status in order, checking each id); a
  // card first (CROSS JOIN keeps that order), then its environment's row by its primary key.
  source: (env, byIds) =>
    byIds
      ? env
        ? 'cards c NOT INDEXED CROSS JOIN card_envs e ON e.card_id = c.id'
        : 'cards NOT INDEXED'
      : env
        ? 'card_envs e JOIN cards c ON c.id = e.card_id'
        : 'cards',
  ordered: (arms, order, _armOrder, tail) =>
    `${arms.join(' UNION ALL ')} ORDER BY ${order} ${tail}`,
};

type BoardCards = Pick<
  BoardStore,
  'listCards' | 'countCards' | 'getCard' | 'listVariants' | 'getVariant' | 'cardHours'
>;

const VARIANT_SQL = `SELECT id, title, substr(description, 1, ?) AS description,
    length(description) AS description_length, file_name, line_number, count, first_seen_at,
    last_seen_at, aggregate FROM variants WHERE card_id = ?`;

/** The board's cards, their variants and counts per hour on SQLite. */
export function createSqliteBoardCards(prepared: Prepared, scan?: ScanLimits): BoardCards {
  const run = <T>(sql: string, params: (string | number)[]) => prepared(sql).all(...params) as T[];
  return {
    listCards: (projectId, query) =>
      listCardPage(
        // Between windows of a long scan, requests and ingestion waiting on the event loop run.
        cardReads(SQLITE_CARDS, projectId, run, () => new Promise((r) => setImmediate(r))),
        query,
        scan,
        searchOf(projectId, query),
      ),
    countCards: (projectId, query) =>
      countCards(SQLITE_CARDS, projectId, query, run, searchOf(projectId, query)),
    getCard(projectId, cardId, day) {
      const r = prepared('SELECT * FROM cards WHERE id = ? AND project_id = ?').get(
        cardId,
        projectId,
      ) as CardRow | undefined;
      return r && toBoardCard(r, day);
    },
    listVariants: (cardId, bodyChars) =>
      (
        prepared(`${VARIANT_SQL} ORDER BY aggregate, last_seen_at DESC, id DESC`).all(
          bodyChars,
          cardId,
        ) as BoardVariantRow[]
      ).map(toBoardVariant),
    getVariant(cardId, variantId) {
      const r = prepared(`${VARIANT_SQL} AND id = ?`).get(1 << 30, cardId, variantId);
      return r === undefined ? undefined : toBoardVariant(r as BoardVariantRow);
    },
    cardHours(cardId, fromHour, toHour) {
      const counts = new Array<number>(Math.max(0, toHour - fromHour + 1)).fill(0);
      const rows = prepared(
        'SELECT hour, count FROM card_hours WHERE card_id = ? AND hour BETWEEN ? AND ?',
      ).all(cardId, fromHour, toHour) as { hour: number; count: number }[];
      for (const r of rows) counts[r.hour - fromHour] = r.count;
      return counts;
    },
  };
}
