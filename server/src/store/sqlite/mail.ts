import type Database from 'better-sqlite3';
import { type OutboxRow, toMail } from '../rows.ts';

/** The outbox of quota warnings: rows are queued by ingest and marked by the SMTP sender. */
export function createSqliteMail(db: Database.Database) {
  const pending = db.prepare('SELECT * FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT ?');
  const all = db.prepare('SELECT * FROM outbox WHERE (? IS NULL OR account_id = ?) ORDER BY id');
  const mark = db.prepare(
    'UPDATE outbox SET attempts = attempts + 1, sent_at = ?, last_error = ? WHERE id = ?',
  );
  return {
    pendingMail: (limit: number) => (pending.all(limit) as OutboxRow[]).map(toMail),
    listMail: (accountId?: number) =>
      (all.all(accountId ?? null, accountId ?? null) as OutboxRow[]).map(toMail),
    markMail: (id: number, result: { sent: boolean; error?: string }) => {
      mark.run(result.sent ? Date.now() : null, result.error ?? null, id);
    },
  };
}
