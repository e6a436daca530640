import type pg from 'pg';
import type { QuotaWarning } from '../../accept/index.ts';
import { quotaWarningMail, type TopCard, WARNING_TOP_CARDS } from '../warning-mail.ts';

/**
 * Quota warnings (contract 6, 8.3) on PostgreSQL, inside the ingest transaction: for each
 * threshold the acceptance decision says the account crossed, the claim is
 * `INSERT … ON CONFLICT DO NOTHING` on (account, day, threshold), so one e-mail goes out per
 * threshold and day whichever instance crosses it. Same text as the SQLite store's warnings.
 */
export async function queueQuotaWarnings(
  client: Pick<pg.PoolClient, 'query'>,
  accountId: number,
  warnings: readonly QuotaWarning[],
  at: string,
): Promise<boolean> {
  let queued = false;
  for (const warning of warnings) {
    const { threshold: pct, day } = warning;
    const claim = await client.query(
      `INSERT INTO quota_warnings (account_id, day, threshold) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [accountId, day, pct],
    );
    if (claim.rowCount === 0) continue;
    const recipients = (
      await client.query<{ email: string }>(
        'SELECT email FROM members WHERE account_id = $1 ORDER BY email',
        [accountId],
      )
    ).rows.map((r) => r.email);
    if (recipients.length === 0) continue;
    const name = (
      await client.query<{ name: string }>('SELECT name FROM accounts WHERE id = $1', [accountId])
    ).rows[0]!.name;
    const top = (
      await client.query<TopCard>(
        `SELECT c.title, p.name AS project, c.usage_count AS count FROM cards c
         JOIN projects p ON p.id = c.project_id
         WHERE p.account_id = $1 AND c.usage_day = $2 ORDER BY c.usage_count DESC, c.id
         LIMIT ${WARNING_TOP_CARDS}`,
        [accountId, day],
      )
    ).rows;
    const { subject, body } = quotaWarningMail(name, warning, top, at);
    await client.query(
      `INSERT INTO outbox (account_id, recipients, subject, body, created_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [accountId, JSON.stringify(recipients), subject, body, Date.parse(at)],
    );
    queued = true;
  }
  return queued;
}
