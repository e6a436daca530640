import { CARD_STATUSES } from '../accept/index.ts';
import {
  likeText,
  PRIORITY_RANK,
  SEVERITY_RANK,
  SUMMARY_COLUMNS,
  type SummaryRow,
} from './board-rows.ts';
import type { CardQuery, CardSort, SortKey } from './board-types.ts';

// The cards page's SQL, for both board stores. A sort's index is (project_id, status, key…, id)
// (SQLite migration 6, PostgreSQL 4): a page is one index range per status asked for, each read in
// the key's order from the cursor on, merged (SQLite's MERGE of a compound select, PostgreSQL's
// Merge Append), so it reads at most `limit + 1` rows of each status, whatever the number of cards.
// SQLite's title sort reads deduplication's (project_id, title) index instead (a second index of
// random titles made each new card 15 % dearer). Filters an index does not hold (tag, title text, a
// severity or priority under another sort, a status there) are checked row by row, within a
// bounded key range (see board-scan.ts).

/** Columns of each sort's key, ending with the card id. */
export const KEY_FIELDS: Record<CardSort, readonly (keyof SummaryRow)[]> = {
  last_seen: ['last_seen_at', 'id'],
  first_seen: ['created_at', 'id'],
  count: ['occurrence_count', 'id'],
  severity: ['severity_rank', 'id'],
  priority: ['priority_rank', 'id'],
  title: ['title', 'id'],
};

/** A row's key under a sort, for `after` / `before`. */
export const keyOf = (sort: CardSort, row: SummaryRow): SortKey =>
  KEY_FIELDS[sort].map((field) => row[field] as string | number);

/** What differs between SQLite and PostgreSQL. */
export interface CardsDialect {
  /** The placeholder of the `n`th parameter (1-based). */
  placeholder(n: number): string;
  /** A key column as the index orders it (PostgreSQL: titles in byte order, `COLLATE "C"`). */
  keyColumn(field: keyof SummaryRow): string;
  /** Whether the sort's index is led by the status (else the status is checked row by row). */
  statusLeads(sort: CardSort): boolean;
  /** A URL value as the store can bind it (PostgreSQL: no U+0000). */
  bind(value: string | number): string | number;
  /** The condition "carries exactly this tag"; `bind` gives the placeholder of a value. */
  tag(tag: string, bind: (value: string) => string): string;
  /** The condition "the title contains the LIKE pattern at this placeholder" (ASCII case-insensitive). */
  text(pattern: string): string;
  /** The arms united and ordered, then `tail` (LIMIT, OFFSET). */
  ordered(arms: string[], order: string, tail: string): string;
}

/** True when every filter of `q` is held by the sort's index, so a page reads only its own rows. */
export const indexBounded = (d: CardsDialect, q: CardQuery) =>
  q.tag === undefined &&
  q.text === undefined &&
  (q.severity === undefined || q.sort === 'severity') &&
  (q.priority === undefined || q.sort === 'priority') &&
  (q.statuses === undefined || d.statusLeads(q.sort));

/** A key from the URL must have the shape of the sort's key: a title or whole numbers, then the id. */
function checkKey(sort: CardSort, key: SortKey) {
  const fields = KEY_FIELDS[sort];
  const fits = (v: string | number, i: number) =>
    fields[i] === 'title' ? typeof v === 'string' : Number.isSafeInteger(v);
  if (key.length !== fields.length || !key.every(fits)) {
    throw new RangeError('The page key does not fit the sort.');
  }
}

export interface CardsSqlOptions {
  /** Rows to return. */
  limit: number;
  /** Only rows up to this key (inclusive) in the direction of travel. */
  to?: SortKey;
  /** Select only the key, with the index's own conditions (the scan's window edge). */
  keysOnly?: boolean;
  /** Rows to skip first. */
  offset?: number;
}

/**
 * One keyset read: rows after `q.after` (or before `q.before`, in reverse) in the sort's order,
 * one arm per status, merged. `keysOnly` reads the index alone (no filter it does not hold).
 */
export function cardsSql(d: CardsDialect, projectId: number, q: CardQuery, o: CardsSqlOptions) {
  const fields = KEY_FIELDS[q.sort];
  const keys = fields.map((f) => d.keyColumn(f));
  const from = q.after ?? q.before;
  const descending = (q.dir === 'desc') !== (q.before !== undefined);
  for (const key of [from, o.to]) if (key) checkKey(q.sort, key);
  const params: (string | number)[] = [];
  const next = (value: string | number) => {
    params.push(d.bind(value));
    return d.placeholder(params.length);
  };
  // A severity (priority) filter under its own sort fixes the key's first value: the range is then
  // on the id alone, which the index can seek (a row-value comparison would walk the whole rank).
  const fixed =
    q.sort === 'severity' && q.severity !== undefined
      ? (SEVERITY_RANK[q.severity] ?? -1)
      : q.sort === 'priority' && q.priority !== undefined
        ? (PRIORITY_RANK[q.priority] ?? -1)
        : undefined;
  /** `(key columns) op key`; undefined when every row passes. */
  const compare = (key: SortKey, op: '<' | '>' | '<=' | '>=') => {
    if (fixed === undefined) return `(${keys.join(', ')}) ${op} (${key.map(next).join(', ')})`;
    const lead = key[0] as number;
    if (lead === fixed) return `id ${op} ${next(key[1]!)}`;
    return (op.startsWith('<') ? fixed < lead : fixed > lead) ? undefined : 'id < 0';
  };
  const statuses = q.statuses ?? CARD_STATUSES;
  const arm = (status: string | undefined) => {
    const where = [`project_id = ${next(projectId)}`];
    const all = !o.keysOnly;
    if (status !== undefined) where.push(`status = ${next(status)}`);
    else if (q.statuses !== undefined && all) {
      where.push(`status IN (${q.statuses.map((s) => next(s)).join(', ')})`);
    }
    if (q.severity !== undefined && (all || q.sort === 'severity'))
      where.push(`severity_rank = ${next(SEVERITY_RANK[q.severity] ?? -1)}`);
    if (q.priority !== undefined && (all || q.sort === 'priority'))
      where.push(`priority_rank = ${next(PRIORITY_RANK[q.priority] ?? -1)}`);
    if (q.tag !== undefined && all) where.push(d.tag(q.tag, next));
    if (q.text !== undefined && all) where.push(d.text(next(likeText(q.text))));
    const after = from && compare(from, descending ? '<' : '>');
    const upTo = o.to && compare(o.to, descending ? '>=' : '<=');
    if (after) where.push(after);
    if (upTo) where.push(upTo);
    const columns = o.keysOnly ? fields.join(', ') : SUMMARY_COLUMNS;
    return `SELECT ${columns} FROM cards WHERE ${where.join(' AND ')}`;
  };
  const arms = d.statusLeads(q.sort) ? statuses.map(arm) : [arm(undefined)];
  const order = keys.map((k) => `${k} ${descending ? 'DESC' : 'ASC'}`).join(', ');
  const tail = `LIMIT ${next(o.limit)}${o.offset ? ` OFFSET ${next(o.offset)}` : ''}`;
  return { sql: d.ordered(arms, order, tail), params };
}
