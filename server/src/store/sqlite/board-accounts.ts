import { type AccountTotals, CARD_COUNT, idKeyset, pageOf } from '../board-rows.ts';
import type {
  BoardAccount,
  BoardProject,
  BoardProjectPage,
  BoardStore,
  IdPage,
} from '../board-types.ts';
import type { Prepared } from './statements.ts';

type BoardAccounts = Pick<BoardStore, 'overview' | 'getAccount' | 'getProject'>;
type AccountRow = Pick<BoardAccount, 'id' | 'name' | 'plan'>;

const PROJECT_SQL = `SELECT p.id, p.account_id AS accountId, p.name, p.state,
    ${CARD_COUNT} AS cards,
    COALESCE((SELECT count FROM usage u WHERE u.account_id = p.account_id AND u.day = ?
      AND u.project_id = p.id), 0) AS eventsToday
  FROM projects p`;
// The accounts pages: a page of an account's projects by id.
const LISTED_PROJECT_SQL = `${PROJECT_SQL} WHERE p.account_id = ?`;

/** The board's accounts and projects pages on SQLite; a project's counts per status from triage. */
export function createSqliteBoardAccounts(
  prepared: Prepared,
  statusCounts: (projectId: number) => BoardProjectPage['statusCounts'],
): BoardAccounts {
  const projectsOf = (accountId: number, day: number, page: IdPage) => {
    const { op, order, from } = idKeyset(page);
    const rows = prepared(
      `${LISTED_PROJECT_SQL} AND p.id ${op} ? ORDER BY p.id ${order} LIMIT ?`,
    ).all(day, accountId, from, page.limit + 1) as BoardProject[];
    return pageOf(rows, page);
  };
  const totalsOf = (accountId: number, day: number) =>
    prepared(
      `SELECT COUNT(*) AS projectCount, COALESCE(SUM(state = 'active'), 0) AS activeProjects,
        (SELECT COALESCE(SUM(count), 0) FROM usage WHERE account_id = ? AND day = ?) AS eventsToday
       FROM projects WHERE account_id = ?`,
    ).get(accountId, day, accountId) as AccountTotals;
  const accountRow = (id: number) =>
    prepared('SELECT id, name, plan FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
  return {
    overview(day, page) {
      const { op, order, from } = idKeyset(page);
      const accounts = pageOf(
        prepared(
          `SELECT id, name, plan FROM accounts WHERE id ${op} ? ORDER BY id ${order} LIMIT ?`,
        ).all(from, page.limit + 1) as AccountRow[],
        page,
      );
      return {
        more: accounts.more,
        rows: accounts.rows.map((a) => ({
          ...a,
          ...totalsOf(a.id, day),
          projects: projectsOf(a.id, day, { limit: page.projectsPerAccount }).rows,
        })),
      };
    },
    getAccount(id, day, page) {
      const account = accountRow(id);
      if (!account) return undefined;
      const projects = projectsOf(id, day, page);
      return { ...account, ...totalsOf(id, day), projects: projects.rows, more: projects.more };
    },
    getProject(id, day) {
      const project = prepared(
        `SELECT x.*, a.name AS accountName, a.plan FROM (${PROJECT_SQL} WHERE p.id = ?) x
         JOIN accounts a ON a.id = x.accountId`,
      ).get(day, id) as Omit<BoardProjectPage, 'statusCounts'> | undefined;
      return project && { ...project, statusCounts: statusCounts(id) };
    },
  };
}
