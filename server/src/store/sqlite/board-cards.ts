import {
  type BoardVariantRow,
  type SummaryRow,
  toBoardCard,
  toBoardVariant,
} from '../board-rows.ts';
import { listCardPage, type ScanLimits } from '../board-scan.ts';
import type { BoardStore, SortKey } from '../board-types.ts';
import { type CardsDialect, cardsSql } from '../cards-sql.ts';
import type { CardRow } from '../rows.ts';
import type { Prepared } from './statements.ts';

/** The cards page's SQL on SQLite: `?` placeholders, a compound select merged in key order. */
export const SQLITE_CARDS: CardsDialect = {
  placeholder: () => '?',
  keyColumn: (field) => field,
  // Titles sort by deduplication's index (project_id, title): no second index of random titles.
  statusLeads: (sort) => sort !== 'title',
  bind: (value) => value,
  // instr() on the stored JSON (written by JSON.stringify) is a cheap pre-filter; json_each()
  // confirms an exact element.
  tag: (tag, bind) =>
    `instr(tags, ${bind(JSON.stringify(tag))}) > 0 AND EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ${bind(tag)})`,
  text: (pattern) => `title LIKE ${pattern} ESCAPE '\\'`,
  ordered: (arms, order, tail) => `${arms.join(' UNION ALL ')} ORDER BY ${order} ${tail}`,
};

type BoardCards = Pick<
  BoardStore,
  'listCards' | 'getCard' | 'listVariants' | 'getVariant' | 'cardHours'
>;

const VARIANT_SQL = `SELECT id, title, substr(description, 1, ?) AS description,
    length(description) AS description_length, file_name, line_number, count, first_seen_at,
    last_seen_at, aggregate FROM variants WHERE card_id = ?`;

/** The board's cards, their variants and counts per hour on SQLite. */
export function createSqliteBoardCards(prepared: Prepared, scan?: ScanLimits): BoardCards {
  return {
    listCards: (projectId, query) =>
      listCardPage(
        {
          dialect: SQLITE_CARDS,
          page(q, limit, to) {
            const { sql, params } = cardsSql(SQLITE_CARDS, projectId, q, { limit, to });
            return prepared(sql).all(...params) as SummaryRow[];
          },
          edge(q, offset) {
            const { sql, params } = cardsSql(SQLITE_CARDS, projectId, q, {
              limit: 1,
              offset,
              keysOnly: true,
            });
            const key = prepared(sql)
              .raw()
              .get(...params) as SortKey | undefined;
            return key;
          },
          // Between windows of a long scan, requests and ingestion waiting on the event loop run.
          pause: () => new Promise((resolve) => setImmediate(resolve)),
        },
        query,
        scan,
      ),
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
