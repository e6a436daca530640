import type { BoardStore } from '../board-types.ts';
import { refilled, waitFor } from '../sign-in-failures.ts';
import type { PgDeadlineDb } from './pool.ts';

/**
 * Migration: wrong admin tokens counted per key (a client, a token's hash) in one table every
 * instance shares, so a client cannot spread its guesses over the instances behind a balancer.
 * Rows of full buckets are deleted as failures come (an absent row is a full bucket).
 */
export const PG_SIGN_IN_FAILURES = `
  CREATE TABLE sign_in_failures (key text PRIMARY KEY, tokens double precision NOT NULL,
    updated_at bigint NOT NULL);
  CREATE INDEX sign_in_failures_by_time ON sign_in_failures (updated_at);
`;

/**
 * One wrong sign-in under `key`, counted for every instance: the key's row is locked while its
 * bucket is refilled and spent, so failures at several instances at once are each counted.
 */
export function pgSignInFailures(db: PgDeadlineDb): BoardStore['signInFailed'] {
  return (key, now, rule) =>
    db.transaction(async (client) => {
      await client.query(
        `INSERT INTO sign_in_failures (key, tokens, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO NOTHING`,
        [key, rule.burst, now],
      );
      const { rows } = await client.query<{ tokens: number; at: number }>(
        'SELECT tokens, updated_at AS at FROM sign_in_failures WHERE key = $1 FOR UPDATE',
        [key],
      );
      const tokens = refilled(rows[0], now, rule);
      await client.query(
        'UPDATE sign_in_failures SET tokens = $2, updated_at = $3 WHERE key = $1',
        [key, tokens >= 1 ? tokens - 1 : tokens, now],
      );
      await client.query('DELETE FROM sign_in_failures WHERE updated_at < $1', [
        now - rule.burst * rule.everyMs,
      ]);
      return waitFor(tokens, rule);
    });
}
