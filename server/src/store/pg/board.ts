import type pg from 'pg';
import {
  type AccountTotals,
  type BoardVariantRow,
  CARD_COUNT,
  idKeyset,
  pageOf,
  type SummaryRow,
  toBoardCard,
  toBoardVariant,
} from '../board-rows.ts';
import { listCardPage, SCAN_ROWS, type ScanLimits } from '../board-scan.ts';
import type {
  BoardAccount,
  BoardProject,
  BoardProjectPage,
  BoardStore,
  IdPage,
  SortKey,
} from '../board-types.ts';
import { type CardsDialect, cardsSql, KEY_FIELDS } from '../cards-sql.ts';
import type { CardRow } from '../rows.ts';
import { migratePg } from './migrations.ts';
import { createPgPool, withinDeadline } from './pool.ts';
import { createPgEnvReads } from './board-envs.ts';
import { createPgSessions } from './sessions.ts';
import { createPgTriage } from './triage.ts';
import { withoutNul } from './text.ts';

/** The cards page's SQL on PostgreSQL: `$n` placeholders, titles in byte order (as SQLite's). */
export const PG_CARDS: CardsDialect = {
  placeholder: (n) => `$${n}`,
  keyColumn: (field) => (field === 'title' ? 'title COLLATE "C"' : field),
  statusLeads: () => true,
  // Filters and page keys come from the URL; text as the store keeps it (see text.ts).
  bind: (value) => (typeof value === 'string' ? withoutNul(value) : value),
  tag: (tag, bind) => `tags::jsonb ? ${bind(tag)}`,
  // ILIKE: case-insensitive as SQLite's LIKE (which folds ASCII only).
  text: (pattern) => `title ILIKE ${pattern} ESCAPE '\\'`,
  // Each arm ordered too: only then does the planner merge the arms' index scans (Merge Append)
  // instead of sorting all their rows.
  ordered: (arms, order, tail) =>
    `SELECT * FROM (${arms.map((arm) => `(${arm} ORDER BY ${order})`).join(' UNION ALL ')}) AS arms
     ORDER BY ${order} ${tail}`,
};

/** A board query (or status change) PostgreSQL has not answered within this is a 503. */
export const BOARD_DEADLINE_MS = 5000;

export interface PgBoardOptions {
  url: string;
  /** Each query or transaction fails (503) past this; 0 for none. @default BOARD_DEADLINE_MS */
  deadlineMs?: number;
  /** Bounds of a filtered cards page: one window of `rows` keys. @default SCAN_ROWS keys */
  scan?: ScanLimits;
}

/**
 * The board's reads on PostgreSQL: the same answers as the SQLite board store, from the same
 * shapes of index (keyset pagination), over a small pool of its own.
 */
export async function openPgBoardStore(opts: PgBoardOptions): Promise<BoardStore> {
  const pool = createPgPool({ url: opts.url, max: 4 });
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const deadlineMs = opts.deadlineMs ?? BOARD_DEADLINE_MS;
  // The server stops a statement past the deadline too, so it does no work nobody waits for.
  pool.on('connect', (client) => {
    client.query(`SET statement_timeout = ${Math.floor(deadlineMs)}`).catch(() => {});
  });
  const db = withinDeadline(pool, deadlineMs);
  const all = <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
    db.query<T>(sql, values);
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
  const triage = createPgTriage(db);
  const variantSql = `SELECT id, title, substr(description, 1, $1) AS description,
      length(description) AS description_length, file_name, line_number, count, first_seen_at,
      last_seen_at, aggregate FROM variants WHERE card_id = $2`;

  return {
    ...createPgSessions(db),
    ...createPgEnvReads(db),
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
    listCards: (projectId, query) =>
      listCardPage(
        {
          dialect: PG_CARDS,
          page: (q, limit, to) => {
            const { sql, params } = cardsSql(PG_CARDS, projectId, q, { limit, to });
            return all<SummaryRow>(sql, params);
          },
          async edge(q, offset) {
            const { sql, params } = cardsSql(PG_CARDS, projectId, q, {
              limit: 1,
              offset,
              keysOnly: true,
            });
            const [row] = await all<SummaryRow>(sql, params);
            return row && (KEY_FIELDS[q.sort].map((f) => row[f]) as SortKey);
          },
        },
        query,
        // One round trip per window: the whole budget in one (the event loop waits for nothing).
        { chunk: opts.scan?.rows ?? SCAN_ROWS, ...opts.scan },
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
