import type pg from 'pg';
import type { QuotaWarning } from '../../accept/index.ts';

const TOP_CARDS = 5;

/**
 * Quota warnings (contract 6, 8.3) on PostgreSQL, inside the ingest transaction: for each
 * threshold the acceptance decision says the account crossed, the claim is
 * `INSERT … ON CONFLICT DO NOTHING` on (account, day, threshold), so one e-mail goes out per
 * threshold and day whichever instance crosses it. Same text as the SQLite store's warnings.
 */
export async function queueQuotaWarnings(
  client: pg.PoolClient,
  accountId: number,
  warnings: readonly QuotaWarning[],
  at: string,
): Promise<boolean> {
  let queued = false;
  for (const { threshold: pct, day, used: after, quota } of warnings) {
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
      await client.query<{ title: string; project: string; count: number }>(
        `SELECT c.title, p.name AS project, c.usage_count AS count FROM cards c
         JOIN projects p ON p.id = c.project_id
         WHERE p.account_id = $1 AND c.usage_day = $2 ORDER BY c.usage_count DESC, c.id
         LIMIT ${TOP_CARDS}`,
        [accountId, day],
      )
    ).rows;
    const lines = top.map((c, i) => `${i + 1}. ${c.title} (${c.project}): ${c.count} events`);
    const subject = `[Svc] ${name} has used ${pct}% of its daily event quota`;
    const body = [
      `Your account "${name}" has used ${after} of its ${quota} daily events (${pct}%) on ${at.slice(0, 10)} (UTC).`,
      pct === 100
        ? 'Further reports are dropped until the quota resets at midnight UTC.'
        : 'Reports beyond the quota are dropped until it resets at midnight UTC.',
      '',
      'Cards drawing the most events today:',
      ...lines,
    ].join('\n');
    await client.query(
      `INSERT INTO outbox (account_id, recipients, subject, body, created_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [accountId, JSON.stringify(recipients), subject, body, Date.parse(at)],
    );
    queued = true;
  }
  return queued;
}
