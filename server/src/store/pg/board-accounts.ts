import type pg from 'pg';
import { type AccountTotals, CARD_COUNT, idKeyset, pageOf } from '../board-rows.ts';
import type {
  BoardAccount,
  BoardProject,
  BoardProjectPage,
  BoardStore,
  IdPage,
} from '../board-types.ts';
import type { PgDeadlineDb } from './pool.ts';

type BoardAccounts = Pick<BoardStore, 'overview' | 'getAccount' | 'getProject'>;
type AccountRow = Pick<BoardAccount, 'id' | 'name' | 'plan'>;

const PROJECT_SQL = `SELECT p.id, p.account_id AS "accountId", p.name, p.state,
    ${CARD_COUNT}::integer AS cards,
    COALESCE((SELECT count FROM usage u WHERE u.account_id = p.account_id AND u.day = $1
      AND u.project_id = p.id), 0) AS "eventsToday"
  FROM projects p`;

/** The board's accounts and projects pages on PostgreSQL; a project's counts per status from triage. */
export function createPgBoardAccounts(
  db: PgDeadlineDb,
  statusCounts: (projectId: number) => Promise<BoardProjectPage['statusCounts']>,
): BoardAccounts {
  const all = <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
    db.query<T>(sql, values);
  // The accounts pages: a page of an account's projects by id.
  const projectsOf = async (accountId: number, day: number, page: IdPage) => {
    const { op, order, from } = idKeyset(page);
    const rows = await all<BoardProject>(
      `${PROJECT_SQL} WHERE p.account_id = $2 AND p.id ${op} $3 ORDER BY p.id ${order} LIMIT $4`,
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
  return {
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
        `SELECT x.*, a.name AS "accountName", a.plan FROM (${PROJECT_SQL} WHERE p.id = $2) x
         JOIN accounts a ON a.id = x."accountId"`,
        [day, id],
      );
      return project && { ...project, statusCounts: await statusCounts(id) };
    },
  };
}
