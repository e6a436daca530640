import { CARD_STATUSES } from '../accept/index.ts';
import { PRIORITY_RANK, SEVERITY_RANK, type SummaryRow, summaryColumns } from './board-rows.ts';
import type { CardQuery, CardSort, SortKey } from './board-types.ts';
import type { SearchTerms } from './search.ts';

// The cards page's SQL, for both board stores. A sort's index is (project_id, status, key…, id)
// (SQLite migration 6, PostgreSQL 4), and (project_id, env, status, key…, card_id) for one
// environment's cards (`card_envs`, SQLite 7, PostgreSQL 6): a page is one index range per status
// asked for, each read in the key's order from the cursor on, merged (SQLite's MERGE of a compound
// select, PostgreSQL's Merge Append), so it reads at most `limit + 1` rows of each status, whatever
// the number of cards. SQLite's title sort over all environments reads deduplication's
// (project_id, title) index instead (a second index of random titles made each new card 15 %
// dearer). Filters an index does not hold (tag, search words, a severity or priority under another
// sort, a status there) are checked row by row, within a bounded key range (see board-scan.ts),
// unless the store found the few cards a search matches first (`ids`).

/** Columns of each sort's key, ending with the card id (as the rows are named). */
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

/** A column a page reads or filters on. */
type Field = string;

/** One environment's columns (`card_envs e`): its counts, times and copies of the card's keys. */
const ENV_COLUMNS: Partial<Record<Field, string>> = {
  id: 'e.card_id',
  project_id: 'e.project_id',
  status: 'e.status',
  title: 'e.title',
  occurrence_count: 'e.occurrence_count',
  created_at: 'e.first_seen_at',
  last_seen_at: 'e.last_seen_at',
  severity_rank: 'e.severity_rank',
  priority_rank: 'e.priority_rank',
};

/** A field's column: the card's own, or in one environment's rows, the environment's (else the card's). */
const columnOf = (env: boolean) => (field: Field) =>
  env ? (ENV_COLUMNS[field] ?? `c.${field}`) : field;

/** What differs between SQLite and PostgreSQL. */
export interface CardsDialect {
  /** The placeholder of the `n`th parameter (1-based). */
  placeholder(n: number): string;
  /** A key column as the index orders it (PostgreSQL: titles in byte order, `COLLATE "C"`). */
  keyColumn(field: keyof SummaryRow, column: string): string;
  /** Whether the sort's index is led by the status (else the status is checked row by row). */
  statusLeads(sort: CardSort, env: boolean): boolean;
  /** A URL value as the store can bind it (PostgreSQL: no U+0000). */
  bind(value: string | number): string | number;
  /** The condition "the tags column carries exactly this tag"; `bind` gives a placeholder. */
  tag(tags: string, tag: string, bind: (value: string) => string): string;
  /** The condition "the card with this id matches the search" (its full-text index). */
  match(id: string, terms: SearchTerms, bind: (value: string | number) => string): string;
  /** The ids (`id`) of the project's cards a search matches, at most `limit`, in any order. */
  matching(terms: SearchTerms, bind: (value: string | number) => string, limit: number): string;
  /** The condition "the id is one of these"; `list` is the placeholder of their JSON array. */
  idIn(id: string, list: string): string;
  /**
   * The table(s) read: the cards, or one environment's rows with their cards; `byIds`: by the
   * cards' ids only (each card, then its environment's row by its key).
   */
  source(env: boolean, byIds: boolean): string;
  /**
   * The arms united and ordered (`armOrder` in each arm's columns, `order` in the rows'), then
   * `tail`; no arm gives more than `armRows` rows.
   */
  ordered(arms: string[], order: string, armOrder: string, tail: string, armRows: number): string;
}

/** True when every filter of `q` is held by the sort's index, so a page reads only its own rows. */
export const indexBounded = (d: CardsDialect, q: CardQuery) =>
  q.tag === undefined &&
  q.text === undefined &&
  (q.severity === undefined || q.sort === 'severity') &&
  (q.priority === undefined || q.sort === 'priority') &&
  (q.statuses === undefined || d.statusLeads(q.sort, q.env !== undefined));

/** Largest value of each integer key column (PostgreSQL `integer`); times are `bigint`. */
const INT_MAX = 2 ** 31 - 1;

/**
 * A key from the URL must have the shape of the sort's key: a title or whole numbers, then the id,
 * each within its column's range (a count or an id past 32 bits is no row's).
 */
function checkKey(sort: CardSort, key: SortKey) {
  const fields = KEY_FIELDS[sort];
  const fits = (v: string | number, i: number) =>
    fields[i] === 'title'
      ? typeof v === 'string'
      : Number.isSafeInteger(v) &&
        (fields[i] === 'last_seen_at' ||
          fields[i] === 'created_at' ||
          Math.abs(v as number) <= INT_MAX);
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
  /** Select only the key (and id), with every condition. */
  keys?: boolean;
  /** With `keys`: the row's status too (the card's, or in one environment, the environment's). */
  status?: boolean;
  /** Rows to skip first. */
  offset?: number;
  /** Only these cards (the few a search matched): read by id, sorted, in one arm. */
  ids?: readonly number[];
  /** The search the query's `text` stands for (checked row by row unless `ids` are given). */
  search?: SearchTerms;
}

/**
 * One keyset read: rows after `q.after` (or before `q.before`, in reverse) in the sort's order,
 * one arm per status, merged. `keysOnly` reads the index alone (no filter it does not hold).
 */
export function cardsSql(d: CardsDialect, projectId: number, q: CardQuery, o: CardsSqlOptions) {
  const env = q.env !== undefined;
  const col = columnOf(env);
  const fields = KEY_FIELDS[q.sort];
  const keys = fields.map((f) => d.keyColumn(f, col(f)));
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
    if (lead === fixed) return `${col('id')} ${op} ${next(key[1]!)}`;
    return (op.startsWith('<') ? fixed < lead : fixed > lead) ? undefined : `${col('id')} < 0`;
  };
  const byIds = o.ids !== undefined;
  const statuses = q.statuses ?? CARD_STATUSES;
  const arm = (status: string | undefined) => {
    const where = [`${col('project_id')} = ${next(projectId)}`];
    if (env) where.push(`e.env = ${next(q.env!)}`);
    const all = !o.keysOnly;
    if (status !== undefined) where.push(`${col('status')} = ${next(status)}`);
    else if (q.statuses !== undefined && all) {
      where.push(`${col('status')} IN (${q.statuses.map((s) => next(s)).join(', ')})`);
    }
    if (q.severity !== undefined && (all || q.sort === 'severity'))
      where.push(`${col('severity_rank')} = ${next(SEVERITY_RANK[q.severity] ?? -1)}`);
    if (q.priority !== undefined && (all || q.sort === 'priority'))
      where.push(`${col('priority_rank')} = ${next(PRIORITY_RANK[q.priority] ?? -1)}`);
    if (q.tag !== undefined && all) where.push(d.tag(col('tags'), q.tag, next));
    // By id: the card's own id, its row read first (see `CardsDialect.source`).
    if (byIds) where.push(d.idIn(env ? 'c.id' : 'id', next(JSON.stringify(o.ids))));
    else if (o.search !== undefined && all) where.push(d.match(col('id'), o.search, next));
    const after = from && compare(from, descending ? '<' : '>');
    const upTo = o.to && compare(o.to, descending ? '>=' : '<=');
    if (after) where.push(after);
    if (upTo) where.push(upTo);
    const columns =
      o.keysOnly || o.keys
        ? [...fields, ...(o.status ? ['status'] : [])].map((f) => `${col(f)} AS ${f}`).join(', ')
        : summaryColumns(col);
    return `SELECT ${columns} FROM ${d.source(env, byIds)} WHERE ${where.join(' AND ')}`;
  };
  const arms = d.statusLeads(q.sort, env) && !byIds ? statuses.map(arm) : [arm(undefined)];
  const way = descending ? 'DESC' : 'ASC';
  const order = fields.map((f) => `${d.keyColumn(f, f)} ${way}`).join(', ');
  const armOrder = keys.map((k) => `${k} ${way}`).join(', ');
  const tail = `LIMIT ${next(o.limit)}${o.offset ? ` OFFSET ${next(o.offset)}` : ''}`;
  const armRows = o.limit + (o.offset ?? 0);
  return { sql: d.ordered(arms, order, armOrder, tail, armRows), params };
}

/** The summary rows of these cards (in no order), as `cardsSql` reads them. */
export function summariesSql(d: CardsDialect, ids: readonly number[], env: string | undefined) {
  const col = columnOf(env !== undefined);
  const params: (string | number)[] = [JSON.stringify(ids)];
  const where = [d.idIn(env !== undefined ? 'c.id' : 'id', d.placeholder(1))];
  if (env !== undefined) {
    params.push(d.bind(env));
    where.push(`e.env = ${d.placeholder(2)}`);
  }
  const sql = `SELECT ${summaryColumns(col)} FROM ${d.source(env !== undefined, true)} WHERE ${where.join(' AND ')}`;
  return { sql, params };
}

/** `rows` in the order of `ids`. */
export const inOrderOf = <T extends { id: number }>(ids: readonly number[], rows: T[]): T[] => {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
};
