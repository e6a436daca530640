import { writesPaused } from './batch.ts';
import { openDatabaseFile } from './database-file.ts';
import { createAuthCache } from './auth-cache.ts';
import {
  type Checkpointer,
  FALLBACK_AUTOCHECKPOINT_PAGES,
  startCheckpointer,
} from './checkpointer.ts';
import { createIngest } from './ingest.ts';
import { migrate } from './migrations.ts';
import { createSqliteMail } from './mail.ts';
import { createSqliteNotify } from './notify.ts';
import {
  type CardRow,
  type EncryptionKeyRow,
  type KeyRow,
  toKeyPair,
  toKeySummary,
  toListedCard,
  type VariantRow,
} from '../rows.ts';
import type {
  Account,
  AuthKey,
  EncryptionKeyPair,
  IngestConfig,
  Member,
  Plan,
  Project,
  ProjectState,
  Store,
} from '../types.ts';

export interface SqliteStoreOptions extends IngestConfig {
  /** Directory holding `svc.sqlite`; created when missing. */
  dataDir: string;
  /**
   * `process` (default): WAL + synchronous=NORMAL, a committed write survives a killed process.
   * `power`: synchronous=FULL, it also survives power loss, at a throughput cost.
   */
  durability?: 'process' | 'power';
  /**
   * Checkpoint the WAL from a worker thread (see checkpointer.ts), started with the first ingested
   * report, rather than in the committing thread. @default true
   */
  backgroundCheckpoint?: boolean;
}

export function openSqliteStore(opts: SqliteStoreOptions): Store {
  const db = openDatabaseFile(opts.dataDir);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${opts.durability === 'power' ? 'FULL' : 'NORMAL'}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);

  const { ingest, rateState, invalidate } = createIngest(db, opts);
  // Started with the first report, so admin-only stores (the CLI) never start a thread.
  let checkpointer: Checkpointer | undefined;
  let checkpointerTried = opts.backgroundCheckpoint === false;
  const ingestWithCheckpointer: Store['ingest'] = (key, report) => {
    if (!checkpointerTried) {
      checkpointerTried = true;
      const inMainThread = () => {
        if (db.open) db.pragma('wal_autocheckpoint = 1000');
      };
      checkpointer = startCheckpointer(db, inMainThread);
      if (checkpointer) db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    }
    return ingest(key, report);
  };
  const mail = createSqliteMail(db);
  const now = opts.now;

  const members = db.prepare('SELECT email, role FROM members WHERE account_id = ? ORDER BY rowid');
  const accountRow = db.prepare('SELECT id, name, plan FROM accounts WHERE id = ?');
  const toAccount = (
    r: { id: number; name: string; plan: Plan } | undefined,
  ): Account | undefined => r && { ...r, members: members.all(r.id) as Member[] };
  const projectCols = 'SELECT id, account_id AS accountId, name, state FROM projects';
  const projectRow = db.prepare(`${projectCols} WHERE id = ?`);
  const authKey = db.prepare(
    `SELECT k.id, k.kind, k.project_id AS projectId, p.account_id AS accountId, a.plan,
       k.secret_hash AS secretHash, k.origins
     FROM api_keys k JOIN projects p ON p.id = k.project_id JOIN accounts a ON a.id = p.account_id
     WHERE k.lookup = ? AND k.kind = ? AND k.revoked_at IS NULL`,
  );
  const authCache = createAuthCache(db, (kindAndLookup): AuthKey | undefined => {
    const colon = kindAndLookup.indexOf(':');
    const kind = kindAndLookup.slice(0, colon);
    const r = authKey.get(kindAndLookup.slice(colon + 1), kind) as
      (AuthKey & { origins: string }) | undefined;
    return r && { ...r, origins: JSON.parse(r.origins) as string[] };
  });
  const encKey = db.prepare(
    `SELECT lookup, public_key, private_key FROM api_keys WHERE project_id = ? AND kind = 'encryption'
     AND revoked_at IS NULL AND (? IS NULL OR lookup = ?) ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  const encKeys = db.prepare(
    `SELECT lookup, public_key, private_key FROM api_keys WHERE project_id = ? AND kind = 'encryption'
     AND revoked_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  // Keyed `projectId:keyId` (empty key id: the project's newest active key). Cleared with the
  // auth keys: a new encryption key becomes the newest, a revoked one must stop decrypting.
  const encCache = createAuthCache(db, (projectAndKeyId): EncryptionKeyPair | undefined => {
    const colon = projectAndKeyId.indexOf(':');
    const keyId = projectAndKeyId.slice(colon + 1) || null;
    const r = encKey.get(Number(projectAndKeyId.slice(0, colon)), keyId, keyId) as
      EncryptionKeyRow | undefined;
    return r && toKeyPair(r);
  });
  // Keyed `projectId:limit`: the keys tried for an envelope without `key_id`, newest first.
  const encListCache = createAuthCache(db, (projectAndLimit): EncryptionKeyPair[] => {
    const [projectId, limit] = projectAndLimit.split(':').map(Number);
    return (encKeys.all(projectId, limit) as EncryptionKeyRow[]).map(toKeyPair);
  });
  const clearKeyCaches = () => {
    authCache.clear();
    encCache.clear();
    encListCache.clear();
  };
  const cardRows = db.prepare('SELECT * FROM cards WHERE project_id = ? ORDER BY id');
  const variantRows = db.prepare(
    'SELECT * FROM variants WHERE card_id = ? ORDER BY aggregate, last_seen_at DESC, id DESC',
  );

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
    insertKey: (k) => {
      clearKeyCaches();
      return Number(
        db
          .prepare(
            `INSERT INTO api_keys (project_id, kind, name, lookup, secret_hash, origins, public_key,
               private_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            k.projectId,
            k.kind,
            k.name,
            k.lookup,
            k.secretHash ?? null,
            JSON.stringify(k.origins ?? []),
            k.publicKey ?? null,
            k.privateKey ?? null,
            now(),
          ).lastInsertRowid,
      );
    },
    listKeys: (projectId) =>
      (
        db
          .prepare('SELECT * FROM api_keys WHERE project_id = ? ORDER BY id')
          .all(projectId) as KeyRow[]
      ).map(toKeySummary),
    revokeKey: (id) => {
      clearKeyCaches();
      return (
        db
          .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
          .run(now(), id).changes === 1
      );
    },
    findAuthKey: (kind, lookup) => authCache.get(`${kind}:${lookup}`),
    findEncryptionKey: (projectId, keyId) => encCache.get(`${projectId}:${keyId ?? ''}`),
    listEncryptionKeys: (projectId, limit) => encListCache.get(`${projectId}:${limit}`) ?? [],
    rateState,
    ingest: ingestWithCheckpointer,
    listCards: (projectId) =>
      (cardRows.all(projectId) as CardRow[]).map((row) =>
        toListedCard(row, variantRows.all(row.id) as VariantRow[]),
      ),
    ...mail,
    // Readiness: can this connection take the write lock now? (Waits 50 ms at most: it runs on
    // the event loop.) While the checkpointer has paused writes on purpose, yes.
    ping: () => {
      if (writesPaused(db)) return;
      db.pragma('busy_timeout = 50');
      try {
        db.exec('BEGIN IMMEDIATE');
        db.exec('ROLLBACK');
      } finally {
        db.pragma('busy_timeout = 5000');
      }
    },
    ...createSqliteNotify(db, now),
    close: async () => {
      await checkpointer?.close();
      db.close();
    },
  };
}
