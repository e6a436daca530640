import type pg from 'pg';
import { WARNING_THRESHOLDS } from '../warnings.ts';

const TOP_CARDS = 5;

/**
 * Quota warnings (contract 6, 8.3) on PostgreSQL, inside the ingest transaction. The claim is
 * `INSERT … ON CONFLICT DO NOTHING` on (account, day, threshold): one e-mail per threshold and day
 * whichever instance crosses it. Same text as the SQLite store's warnings.
 */
export async function queueQuotaWarnings(
  client: pg.PoolClient,
  w: { accountId: number; day: number; before: number; after: number; quota: number; at: string },
): Promise<boolean> {
  let queued = false;
  for (const pct of WARNING_THRESHOLDS) {
    const mark = Math.ceil((w.quota * pct) / 100);
    if (!(w.before < mark && w.after >= mark)) continue;
    const claim = await client.query(
      `INSERT INTO quota_warnings (account_id, day, threshold) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [w.accountId, w.day, pct],
    );
    if (claim.rowCount === 0) continue;
    const recipients = (
      await client.query<{ email: string }>(
        'SELECT email FROM members WHERE account_id = $1 ORDER BY email',
        [w.accountId],
      )
    ).rows.map((r) => r.email);
    if (recipients.length === 0) continue;
    const name = (
      await client.query<{ name: string }>('SELECT name FROM accounts WHERE id = $1', [w.accountId])
    ).rows[0]!.name;
    const top = (
      await client.query<{ title: string; project: string; count: number }>(
        `SELECT c.title, p.name AS project, c.usage_count AS count FROM cards c
         JOIN projects p ON p.id = c.project_id
         WHERE p.account_id = $1 AND c.usage_day = $2 ORDER BY c.usage_count DESC, c.id
         LIMIT ${TOP_CARDS}`,
        [w.accountId, w.day],
      )
    ).rows;
    const lines = top.map((c, i) => `${i + 1}. ${c.title} (${c.project}): ${c.count} events`);
    const subject = `[Svc] ${name} has used ${pct}% of its daily event quota`;
    const body = [
      `Your account "${name}" has used ${w.after} of its ${w.quota} daily events (${pct}%) on ${w.at.slice(0, 10)} (UTC).`,
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
      [w.accountId, JSON.stringify(recipients), subject, body, Date.parse(w.at)],
    );
    queued = true;
  }
  return queued;
}
