import type pg from 'pg';
import type { Account, Member, Plan, Project, Store } from '../types.ts';
import type { PgDeadlineDb } from './pool.ts';

type Accounts = Pick<
  Store,
  | 'createAccount'
  | 'getAccount'
  | 'listAccounts'
  | 'createProject'
  | 'getProject'
  | 'listProjects'
  | 'setProjectState'
>;

const PROJECT_COLS = 'SELECT id, account_id AS "accountId", name, state FROM projects';

/** Accounts, their members and projects on PostgreSQL (each call within the admin deadline). */
export function createPgAccounts(db: PgDeadlineDb, now: () => number): Accounts {
  const one = async <T extends pg.QueryResultRow>(sql: string, values: unknown[]) =>
    (await db.query<T>(sql, values))[0];
  const all = <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
    db.query<T>(sql, values);

  const withMembers = async (rows: { id: number; name: string; plan: Plan }[]) => {
    if (rows.length === 0) return [];
    const members = await all<Member & { account_id: number }>(
      'SELECT account_id, email, role FROM members WHERE account_id = ANY($1) ORDER BY id',
      [rows.map((r) => r.id)],
    );
    return rows.map((r): Account => ({
      ...r,
      members: members
        .filter((m) => m.account_id === r.id)
        .map(({ email, role }) => ({ email, role })),
    }));
  };

  return {
    createAccount: (input) =>
      db.transaction(async (client) => {
        const { rows } = await client.query<{ id: number; name: string; plan: Plan }>(
          'INSERT INTO accounts (name, plan, created_at) VALUES ($1, $2, $3) RETURNING id, name, plan',
          [input.name, input.plan, now()],
        );
        for (const m of input.members) {
          await client.query('INSERT INTO members (account_id, email, role) VALUES ($1, $2, $3)', [
            rows[0]!.id,
            m.email,
            m.role,
          ]);
        }
        return { ...rows[0]!, members: input.members.map(({ email, role }) => ({ email, role })) };
      }),
    getAccount: async (id) =>
      (await withMembers(await all('SELECT id, name, plan FROM accounts WHERE id = $1', [id])))[0],
    listAccounts: async () =>
      withMembers(await all('SELECT id, name, plan FROM accounts ORDER BY id')),
    createProject: async ({ accountId, name }) =>
      (await one<Project>(
        `INSERT INTO projects (account_id, name, created_at) VALUES ($1, $2, $3)
         RETURNING id, account_id AS "accountId", name, state`,
        [accountId, name, now()],
      ))!,
    getProject: (id) => one<Project>(`${PROJECT_COLS} WHERE id = $1`, [id]),
    listProjects: (accountId) =>
      accountId === undefined
        ? all<Project>(`${PROJECT_COLS} ORDER BY id`)
        : all<Project>(`${PROJECT_COLS} WHERE account_id = $1 ORDER BY id`, [accountId]),
    setProjectState: async (id, state) =>
      (await one<Project>(
        `UPDATE projects SET state = $2 WHERE id = $1
         RETURNING id, account_id AS "accountId", name, state`,
        [id, state],
      ))!,
  };
}
