import type Database from 'better-sqlite3';
import type { OutboxMail } from './types.ts';

interface OutboxRow {
  id: number;
  account_id: number;
  recipients: string;
  subject: string;
  body: string;
  created_at: number;
  sent_at: number | null;
  attempts: number;
  last_error: string | null;
}

const toMail = (r: OutboxRow): OutboxMail => ({
  id: r.id,
  accountId: r.account_id,
  to: JSON.parse(r.recipients),
  subject: r.subject,
  text: r.body,
  createdAt: new Date(r.created_at).toISOString(),
  sentAt: r.sent_at === null ? null : new Date(r.sent_at).toISOString(),
  attempts: r.attempts,
  lastError: r.last_error,
});

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
