import type pg from 'pg';
import type { IngestConfig } from '../types.ts';
import {
  type CardRow,
  type EncryptionKeyRow,
  type KeyRow,
  toKeyPair,
  toKeySummary,
  toListedCard,
  type VariantRow,
} from '../rows.ts';
import type { Account, Member, Plan, Project, Store } from '../types.ts';
import { createAuthLookup, createKnownKeys } from './auth-lookup.ts';
import { createPgIngest } from './ingest.ts';
import { createPgMail } from './mail.ts';
import { createPgNotify } from './notify.ts';
import { migratePg } from './migrations.ts';
import { createPgPool, queryWithin, withinDeadline } from './pool.ts';

export interface PgStoreOptions extends IngestConfig {
  /** `postgres://user:password@host:port/database`; the schema is migrated on open. */
  url: string;
  /** Connections this instance keeps open. @default 10 */
  poolSize?: number;
  /**
   * An admin call (accounts, projects, keys, cards) or key read PostgreSQL has not answered within
   * this fails as unavailable (503 in a request) and its connection is dropped; 0 for none (the
   * CLI, which may list large projects and has nobody else to serve). @default 5000
   */
  adminDeadlineMs?: number;
}

const ENC_COLS = `SELECT lookup, public_key, private_key FROM api_keys WHERE project_id = $1
  AND kind = 'encryption' AND revoked_at IS NULL`;

const PROJECT_COLS = 'SELECT id, account_id AS "accountId", name, state FROM projects';

/**
 * The Store on PostgreSQL, for any number of service instances sharing one database. Nothing is
 * cached across requests: every read sees what any instance committed, so a revoked key is refused
 * on the very next request to any instance (an indexed lookup costs one round trip).
 */
export async function openPgStore(opts: PgStoreOptions): Promise<Store> {
  const pool = createPgPool({ url: opts.url, max: opts.poolSize });
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const now = opts.now;
  const findAuthKey = createAuthLookup(pool);
  const knownKeys = createKnownKeys(findAuthKey);
  const ingest = createPgIngest(pool, opts, knownKeys.forget);
  const admin = withinDeadline(pool, opts.adminDeadlineMs ?? 5000);
  const one = async <T extends pg.QueryResultRow>(sql: string, values: unknown[]) =>
    (await admin.query<T>(sql, values))[0];
  const all = <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
    admin.query<T>(sql, values);

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
      admin.transaction(async (client) => {
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
    insertKey: async (k) =>
      (await one<{ id: number }>(
        `INSERT INTO api_keys (project_id, kind, name, lookup, secret_hash, origins, public_key,
           private_key, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          k.projectId,
          k.kind,
          k.name,
          k.lookup,
          k.secretHash ?? null,
          JSON.stringify(k.origins ?? []),
          k.publicKey ?? null,
          k.privateKey ?? null,
          now(),
        ],
      ))!.id,
    listKeys: async (projectId) =>
      (
        await all<KeyRow>('SELECT * FROM api_keys WHERE project_id = $1 ORDER BY id', [projectId])
      ).map(toKeySummary),
    revokeKey: async (id) => {
      knownKeys.forget(id);
      return (
        (
          await all(
            'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id',
            [now(), id],
          )
        ).length === 1
      );
    },
    findAuthKey,
    findIngestKey: knownKeys.find,
    findEncryptionKey: async (projectId, keyId) => {
      if (keyId?.includes('\u0000')) return undefined; // no key id holds it (PostgreSQL text cannot)
      const r = await one<EncryptionKeyRow>(
        `${ENC_COLS} AND ($2::text IS NULL OR lookup = $2) ORDER BY created_at DESC, id DESC LIMIT 1`,
        [projectId, keyId ?? null],
      );
      return r && toKeyPair(r);
    },
    listEncryptionKeys: async (projectId, limit) =>
      (
        await all<EncryptionKeyRow>(`${ENC_COLS} ORDER BY created_at DESC, id DESC LIMIT $2`, [
          projectId,
          limit,
        ])
      ).map(toKeyPair),
    rateState: ingest.rateState,
    ingest: ingest.ingest,
    listCards: async (projectId) => {
      const cards = await all<CardRow>('SELECT * FROM cards WHERE project_id = $1 ORDER BY id', [
        projectId,
      ]);
      const variants = await all<VariantRow & { card_id: number }>(
        `SELECT v.* FROM variants v JOIN cards c ON c.id = v.card_id WHERE c.project_id = $1
         ORDER BY v.card_id, v.aggregate, v.last_seen_at DESC, v.id DESC`,
        [projectId],
      );
      const byCard = new Map<number, VariantRow[]>();
      for (const v of variants) {
        const list = byCard.get(v.card_id) ?? [];
        list.push(v);
        byCard.set(v.card_id, list);
      }
      return cards.map((row) => toListedCard(row, byCard.get(row.id) ?? []));
    },
    ...createPgMail(admin),
    ping: async () => {
      await queryWithin(pool, 2000, 'SELECT 1');
    },
    ...createPgNotify(admin, now),
    close: async () => {
      await ingest.drain();
      await pool.end();
    },
  };
}
