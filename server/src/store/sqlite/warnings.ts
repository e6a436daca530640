import type Database from 'better-sqlite3';
import type { QuotaWarning } from '../../accept/index.ts';
import { quotaWarningMail, type TopCard, WARNING_TOP_CARDS } from '../warning-mail.ts';

/**
 * Quota warnings (contract 6, 8.3): for each threshold the acceptance decision says the account
 * crossed (`QuotaWarning`), queue one e-mail per threshold and day in the outbox, addressed to every member of the account
 * (owner, admins, members) and naming the cards that drew the most events today.
 * Runs inside the ingest transaction; returns true when something was queued.
 */
export function createQuotaWarnings(db: Database.Database) {
  const q = {
    claim: db.prepare(
      'INSERT OR IGNORE INTO quota_warnings (account_id, day, threshold) VALUES (?, ?, ?)',
    ),
    account: db.prepare('SELECT name FROM accounts WHERE id = ?').pluck(),
    members: db.prepare('SELECT email FROM members WHERE account_id = ? ORDER BY email').pluck(),
    top: db.prepare(
      `SELECT c.title, p.name AS project, c.usage_count AS count FROM cards c
       JOIN projects p ON p.id = c.project_id
       WHERE p.account_id = ? AND c.usage_day = ? ORDER BY c.usage_count DESC, c.id LIMIT ${WARNING_TOP_CARDS}`,
    ),
    queue: db.prepare(
      `INSERT INTO outbox (account_id, recipients, subject, body, created_at)
       VALUES (?, ?, ?, ?, ?)`,
    ),
  };

  return (accountId: number, warnings: readonly QuotaWarning[], at: string) => {
    let queued = false;
    for (const warning of warnings) {
      const { threshold, day } = warning;
      if (q.claim.run(accountId, day, threshold).changes === 0) continue;
      const recipients = q.members.all(accountId) as string[];
      if (recipients.length === 0) continue;
      const top = q.top.all(accountId, day) as TopCard[];
      const { subject, body } = quotaWarningMail(
        q.account.get(accountId) as string,
        warning,
        top,
        at,
      );
      q.queue.run(accountId, JSON.stringify(recipients), subject, body, Date.parse(at));
      queued = true;
    }
    return queued;
  };
}
