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
