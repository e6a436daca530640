import type Database from 'better-sqlite3';
import { type EncryptionKeyRow, type KeyRow, toKeyPair, toKeySummary } from '../rows.ts';
import type { AuthKey, EncryptionKeyPair, Store } from '../types.ts';
import { createAuthCache } from './auth-cache.ts';

type Keys = Pick<
  Store,
  | 'insertKey'
  | 'listKeys'
  | 'revokeKey'
  | 'findAuthKey'
  | 'findEncryptionKey'
  | 'listEncryptionKeys'
>;

/**
 * API keys on SQLite: written by the admin API, read on every request through caches of live keys
 * (`auth-cache.ts`), cleared on this connection's key writes and on any other connection's commit.
 */
export function createSqliteKeys(db: Database.Database, now: () => number): Keys {
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
  return {
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
  };
}
