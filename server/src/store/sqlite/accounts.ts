import type Database from 'better-sqlite3';
import type { Account, Member, Plan, Project, ProjectState, Store } from '../types.ts';

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

/**
 * Accounts, their members and projects on SQLite. `invalidate` drops the ingestion's read caches:
 * a new project changes its account's count of active projects, a state change what ingestion
 * decides.
 */
export function createSqliteAccounts(
  db: Database.Database,
  now: () => number,
  invalidate: () => void,
): Accounts {
  const members = db.prepare('SELECT email, role FROM members WHERE account_id = ? ORDER BY rowid');
  const accountRow = db.prepare('SELECT id, name, plan FROM accounts WHERE id = ?');
  const toAccount = (
    r: { id: number; name: string; plan: Plan } | undefined,
  ): Account | undefined => r && { ...r, members: members.all(r.id) as Member[] };
  const projectCols = 'SELECT id, account_id AS accountId, name, state FROM projects';
  const projectRow = db.prepare(`${projectCols} WHERE id = ?`);
  return {
    createAccount: db.transaction((input: { name: string; plan: Plan; members: Member[] }) => {
      const id = Number(
        db
          .prepare('INSERT INTO accounts (name, plan, created_at) VALUES (?, ?, ?)')
          .run(input.name, input.plan, now()).lastInsertRowid,
      );
      const add = db.prepare('INSERT INTO members (account_id, email, role) VALUES (?, ?, ?)');
      for (const m of input.members) add.run(id, m.email, m.role);
      return toAccount(accountRow.get(id) as never)!;
    }),
    getAccount: (id) => toAccount(accountRow.get(id) as never),
    listAccounts: () =>
      (db.prepare('SELECT id, name, plan FROM accounts ORDER BY id').all() as never[]).map((r) =>
        toAccount(r)!,
      ),
    createProject: ({ accountId, name }) => {
      invalidate(); // the account's count of active projects changes
      const info = db
        .prepare('INSERT INTO projects (account_id, name, created_at) VALUES (?, ?, ?)')
        .run(accountId, name, now());
      return projectRow.get(info.lastInsertRowid) as Project;
    },
    getProject: (id) => projectRow.get(id) as Project | undefined,
    listProjects: (accountId) =>
      (accountId === undefined
        ? db.prepare(`${projectCols} ORDER BY id`).all()
        : db
            .prepare(`${projectCols} WHERE account_id = ? ORDER BY id`)
            .all(accountId)) as Project[],
    setProjectState: (id: number, state: ProjectState) => {
      invalidate();
      db.prepare('UPDATE projects SET state = ? WHERE id = ?').run(state, id);
      return projectRow.get(id) as Project;
    },
  };
}
