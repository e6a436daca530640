import type pg from 'pg';
import {
  type AccountTotals,
  type BoardVariantRow,
  CARD_COUNT,
  idKeyset,
  likeText,
  pageOf,
  PRIORITY_RANK,
  SEVERITY_RANK,
  SUMMARY_COLUMNS,
  type SummaryRow,
  toBoardCard,
  toBoardVariant,
  toSummary,
} from '../board-rows.ts';
import type {
  BoardAccount,
  BoardProject,
  BoardProjectPage,
  BoardStore,
  CardQuery,
  CardSort,
  IdPage,
} from '../board-types.ts';
import type { CardRow } from '../rows.ts';
import { migratePg } from './migrations.ts';
import { createPgPool } from './pool.ts';
import { createPgSessions } from './sessions.ts';
import { createPgTriage } from './triage.ts';
import { withoutNul } from './text.ts';

/** Columns of each sort's keyset, each served by an index of PostgreSQL migration 2. */
const KEY_COLUMNS: Record<CardSort, string[]> = {
  last_seen: ['last_seen_at', 'id'],
  first_seen: ['created_at', 'id'],
  count: ['occurrence_count', 'id'],
  severity: ['severity_rank', 'id'],
  priority: ['priority_rank', 'id'],
  title: ['title COLLATE "C"', 'id'],
};
const FIELD: Record<string, string> = { 'title COLLATE "C"': 'title' };

/**
 * The board's reads on PostgreSQL: the same answers as the SQLite board store, from the same
 * shapes of index (keyset pagination), over a small pool of its own.
 */
export async function openPgBoardStore(opts: { url: string }): Promise<BoardStore> {
  const pool = createPgPool({ url: opts.url, max: 4 });
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const all = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
    (await pool.query<T>(sql, values)).rows;
  const projectSql = `SELECT p.id, p.account_id AS "accountId", p.name, p.state,
      ${CARD_COUNT}::integer AS cards,
      COALESCE((SELECT count FROM usage u WHERE u.account_id = p.account_id AND u.day = $1
        AND u.project_id = p.id), 0) AS "eventsToday"
    FROM projects p`;
  // The accounts pages: a page of an account's projects by id.
  const projectsOf = async (accountId: number, day: number, page: IdPage) => {
    const { op, order, from } = idKeyset(page);
    const rows = await all<BoardProject>(
      `SELECT p.id, p.account_id AS "accountId", p.name, p.state,
         ${CARD_COUNT}::integer AS cards,
         COALESCE((SELECT count FROM usage u WHERE u.account_id = p.account_id AND u.day = $1
           AND u.project_id = p.id), 0) AS "eventsToday"
       FROM projects p WHERE p.account_id = $2 AND p.id ${op} $3 ORDER BY p.id ${order} LIMIT $4`,
      [day, accountId, from, page.limit + 1],
    );
    return pageOf(rows, page);
  };
  const totalsOf = async (accountId: number, day: number) =>
    (
      await all<AccountTotals>(
        `SELECT COUNT(*)::integer AS "projectCount",
           (COUNT(*) FILTER (WHERE state = 'active'))::integer AS "activeProjects",
           (SELECT COALESCE(SUM(count), 0) FROM usage WHERE account_id = $1 AND day = $2)::integer
             AS "eventsToday"
         FROM projects WHERE account_id = $1`,
        [accountId, day],
      )
    )[0]!;
  type AccountRow = Pick<BoardAccount, 'id' | 'name' | 'plan'>;
  const triage = createPgTriage(pool);
  const variantSql = `SELECT id, title, substr(description, 1, $1) AS description,
      length(description) AS description_length, file_name, line_number, count, first_seen_at,
      last_seen_at, aggregate FROM variants WHERE card_id = $2`;

  return {
    ...createPgSessions(pool),
    async overview(day, page) {
      const { op, order, from } = idKeyset(page);
      const accounts = pageOf(
        await all<AccountRow>(
          `SELECT id, name, plan FROM accounts WHERE id ${op} $1 ORDER BY id ${order} LIMIT $2`,
          [from, page.limit + 1],
        ),
        page,
      );
      return {
        more: accounts.more,
        rows: await Promise.all(
          accounts.rows.map(async (a) => ({
            ...a,
            ...(await totalsOf(a.id, day)),
            projects: (await projectsOf(a.id, day, { limit: page.projectsPerAccount })).rows,
          })),
        ),
      };
    },
    async getAccount(id, day, page) {
      const [account] = await all<AccountRow>('SELECT id, name, plan FROM accounts WHERE id = $1', [
        id,
      ]);
      if (!account) return undefined;
      const projects = await projectsOf(id, day, page);
      return {
        ...account,
        ...(await totalsOf(id, day)),
        projects: projects.rows,
        more: projects.more,
      };
    },
    async getProject(id, day) {
      const [project] = await all<Omit<BoardProjectPage, 'statusCounts'>>(
        `SELECT x.*, a.name AS "accountName", a.plan FROM (${projectSql} WHERE p.id = $2) x
         JOIN accounts a ON a.id = x."accountId"`,
        [day, id],
      );
      return project && { ...project, statusCounts: await triage.statusCounts(id) };
    },
    async listCards(projectId, query) {
      const { sql, params } = pgCardsSql(projectId, query);
      const rows = await all<SummaryRow>(sql, params);
      const more = rows.length > query.limit;
      const page = rows.slice(0, query.limit);
      if (query.before) page.reverse();
      return {
        more,
        cards: page.map((r) =>
          toSummary(
            r,
            KEY_COLUMNS[query.sort].map(
              (c) => r[(FIELD[c] ?? c) as keyof SummaryRow] as string | number,
            ),
          ),
        ),
      };
    },
    async getCard(projectId, cardId, day) {
      const [r] = await all<CardRow>('SELECT * FROM cards WHERE id = $1 AND project_id = $2', [
        cardId,
        projectId,
      ]);
      return r && toBoardCard(r, day);
    },
    listVariants: async (cardId, bodyChars) =>
      (
        await all<BoardVariantRow>(`${variantSql} ORDER BY aggregate, last_seen_at DESC, id DESC`, [
          bodyChars,
          cardId,
        ])
      ).map(toBoardVariant),
    async getVariant(cardId, variantId) {
      const [r] = await all<BoardVariantRow>(`${variantSql} AND id = $3`, [
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
    setCardStatus: triage.setCardStatus,
    cardHistory: triage.cardHistory,
    close: () => pool.end(),
  };
}

/** One keyset page, as `cardsSql` of the SQLite board store, with PostgreSQL placeholders. */
export function pgCardsSql(projectId: number, q: CardQuery) {
  const columns = KEY_COLUMNS[q.sort];
  const params: (string | number | readonly string[])[] = [projectId];
  const next = (value: string | number) => {
    // Filters and page keys come from the URL; text as the store keeps it (see text.ts).
    params.push(typeof value === 'string' ? withoutNul(value) : value);
    return `$${params.length}`;
  };
  const where = ['project_id = $1'];
  if (q.statuses !== undefined) {
    params.push(q.statuses);
    where.push(`status = ANY($${params.length}::text[])`);
  }
  if (q.severity !== undefined)
    where.push(`severity_rank = ${next(SEVERITY_RANK[q.severity] ?? -1)}`);
  if (q.priority !== undefined)
    where.push(`priority_rank = ${next(PRIORITY_RANK[q.priority] ?? -1)}`);
  if (q.tag !== undefined) where.push(`tags::jsonb ? ${next(q.tag)}`);
  // ILIKE: case-insensitive as SQLite's LIKE (which folds ASCII only).
  if (q.text !== undefined) where.push(`title ILIKE ${next(likeText(q.text))} ESCAPE '\\'`);
  const boundary = q.after ?? q.before;
  const backwards = q.before !== undefined;
  const descending = (q.dir === 'desc') !== backwards;
  if (boundary) {
    // PostgreSQL compares typed values: a key from the URL must fit its columns' types.
    const fits = (v: string | number, i: number) =>
      columns[i]!.startsWith('title') ? typeof v === 'string' : Number.isSafeInteger(v);
    if (boundary.length !== columns.length || !boundary.every(fits))
      throw new RangeError('The page key does not fit the sort.');
    const values = boundary.map((v) => next(v));
    where.push(`(${columns.join(', ')}) ${descending ? '<' : '>'} (${values.join(', ')})`);
  }
  const order = columns.map((c) => `${c} ${descending ? 'DESC' : 'ASC'}`).join(', ');
  const limit = next(q.limit + 1);
  return {
    sql: `SELECT ${SUMMARY_COLUMNS} FROM cards
      WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${limit}`,
    params,
  };
}
