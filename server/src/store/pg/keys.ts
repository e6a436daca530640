import type pg from 'pg';
import { type EncryptionKeyRow, type KeyRow, toKeyPair, toKeySummary } from '../rows.ts';
import type { Store } from '../types.ts';
import type { PgDeadlineDb } from './pool.ts';

type Keys = Pick<
  Store,
  'insertKey' | 'listKeys' | 'revokeKey' | 'findEncryptionKey' | 'listEncryptionKeys'
>;

const ENC_COLS = `SELECT lookup, public_key, private_key FROM api_keys WHERE project_id = $1
  AND kind = 'encryption' AND revoked_at IS NULL`;

/**
 * API keys on PostgreSQL, written by the admin API (each call within its deadline). Ingestion's
 * key lookups are `auth-lookup.ts`'s; `forget` drops a revoked key it keeps.
 */
export function createPgKeys(
  db: PgDeadlineDb,
  now: () => number,
  forget: (keyId: number) => void,
): Keys {
  const one = async <T extends pg.QueryResultRow>(sql: string, values: unknown[]) =>
    (await db.query<T>(sql, values))[0];
  const all = <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
    db.query<T>(sql, values);
  return {
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
      forget(id);
      return (
        (
          await all(
            'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id',
            [now(), id],
          )
        ).length === 1
      );
    },
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
  };
}
