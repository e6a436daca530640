import type pg from 'pg';
import type { AuthKey } from '../types.ts';
import { queryWithin } from './pool.ts';

/** A key lookup the database has not answered within this is a 503 (the SDKs retry). */
const LOOKUP_TIMEOUT_MS = 5000;

type Kind = 'publishable' | 'secret';
type Waiter = {
  kind: Kind;
  lookup: string;
  resolve: (k: AuthKey | undefined) => void;
  reject: (e: unknown) => void;
};

/**
 * Live-key lookups without a cache: each request reads the database after it arrived, so a key
 * revoked by any instance is refused on the very next request. The lookups of one event-loop turn
 * share one query (`lookup = ANY($1)`), which keeps a burst of requests to one round trip.
 */
export function createAuthLookup(pool: pg.Pool) {
  let waiting: Waiter[] = [];

  const run = async (batch: Waiter[]) => {
    try {
      const { rows } = await queryWithin<AuthKey & { origins: string; lookup: string }>(
        pool,
        LOOKUP_TIMEOUT_MS,
        `SELECT k.id, k.kind, k.lookup, k.project_id AS "projectId", p.account_id AS "accountId",
           a.plan, k.secret_hash AS "secretHash", k.origins
         FROM api_keys k JOIN projects p ON p.id = k.project_id JOIN accounts a ON a.id = p.account_id
         WHERE k.lookup = ANY($1) AND k.revoked_at IS NULL`,
        [[...new Set(batch.map((w) => w.lookup))]],
      );
      for (const w of batch) {
        const r = rows.find((row) => row.lookup === w.lookup && row.kind === w.kind);
        if (!r) {
          w.resolve(undefined);
          continue;
        }
        const { lookup: _lookup, origins, ...key } = r;
        w.resolve({ ...key, origins: JSON.parse(origins) as string[] });
      }
    } catch (error) {
      // The database is unreachable: a server error (the SDKs retry), not a 401 they would drop.
      for (const w of batch) w.reject(error);
    }
  };

  return (kind: Kind, lookup: string): Promise<AuthKey | undefined> =>
    new Promise((resolve, reject) => {
      if (waiting.length === 0) {
        setImmediate(() => {
          const batch = waiting;
          waiting = [];
          void run(batch);
        });
      }
      waiting.push({ kind, lookup, resolve, reject });
    });
}

/**
 * Live keys kept in memory for the ingestion route (`Store.findIngestKey`): the ingest write
 * checks each report's key again in its own statement (`svc_ingest_write`), so a key revoked by
 * any instance or the CLI is refused (401) by the very next report it would have stored, and is
 * then forgotten here. Only hits are kept, at most 10,000.
 */
export function createKnownKeys(
  find: (kind: Kind, lookup: string) => Promise<AuthKey | undefined>,
) {
  const known = new Map<string, AuthKey>();
  const byId = new Map<number, string>();
  return {
    find(kind: Kind, lookup: string): AuthKey | Promise<AuthKey | undefined> {
      const hit = known.get(`${kind}:${lookup}`);
      if (hit) return hit;
      return find(kind, lookup).then((key) => {
        if (key) {
          if (known.size >= 10_000) {
            known.clear();
            byId.clear();
          }
          known.set(`${kind}:${lookup}`, key);
          byId.set(key.id, `${kind}:${lookup}`);
        }
        return key;
      });
    },
    forget(id: number) {
      const k = byId.get(id);
      if (k !== undefined) known.delete(k);
      byId.delete(id);
    },
  };
}
