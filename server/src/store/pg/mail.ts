import type { PgDeadlineDb } from './pool.ts';
import { type OutboxRow, toMail } from '../rows.ts';

/** How long an instance holds the mail it took from the outbox before another may retry it. */
const CLAIM_MS = 120_000;

/**
 * The outbox on PostgreSQL. Several instances drain it at once, so `pendingMail` claims the rows it
 * returns for a while (`FOR UPDATE SKIP LOCKED`): each e-mail goes out through one instance, and a
 * crashed instance's claims lapse so another retries them. Every query runs within the store's
 * deadline: a database that stops answering fails the mail loop's turn, it does not hang it.
 */
export function createPgMail(db: PgDeadlineDb) {
  return {
    async pendingMail(limit: number) {
      const now = Date.now();
      const rows = await db.query<OutboxRow>(
        `UPDATE outbox SET claimed_until = $2 WHERE id IN (
           SELECT id FROM outbox WHERE sent_at IS NULL AND (claimed_until IS NULL OR claimed_until < $3)
           ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [limit, now + CLAIM_MS, now],
      );
      return rows.sort((a, b) => a.id - b.id).map(toMail);
    },
    async listMail(accountId?: number) {
      const rows = await db.query<OutboxRow>(
        'SELECT * FROM outbox WHERE ($1::integer IS NULL OR account_id = $1) ORDER BY id',
        [accountId ?? null],
      );
      return rows.map(toMail);
    },
    async markMail(id: number, result: { sent: boolean; error?: string }) {
      await db.query(
        `UPDATE outbox SET attempts = attempts + 1, sent_at = $1, last_error = $2,
           claimed_until = NULL WHERE id = $3`,
        [result.sent ? Date.now() : null, result.error ?? null, id],
      );
    },
  };
}
