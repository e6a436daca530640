import { type DigestProject, digestMail, type NoticeRow } from '../digest-mail.ts';
import { iso } from '../rows.ts';
import type { DigestTiming, NotificationSetting } from '../types.ts';
import type { PgDeadlineDb } from './pool.ts';

/**
 * Per-project notifications on PostgreSQL, as `../notify.ts` on SQLite. Every instance runs the
 * digests; each due project's settings row is locked (`FOR UPDATE … SKIP LOCKED`) while its
 * digest is made, so one instance makes it, and notices are cleared by id: one committed by an
 * ingest batch meanwhile waits for the next digest instead of being lost. Every query and the
 * digest's transaction run within the store's deadline.
 */
export function createPgNotify(db: PgDeadlineDb, now: () => number) {
  return {
    async setNotifications(projectId: number, on: { recipients: string[] | null } | null) {
      if (on) {
        await db.query(
          `INSERT INTO project_notify (project_id, recipients, created_at) VALUES ($1, $2, $3)
           ON CONFLICT (project_id) DO UPDATE SET recipients = excluded.recipients`,
          [projectId, on.recipients && JSON.stringify(on.recipients), now()],
        );
        return;
      }
      await db.query(
        `WITH off AS (DELETE FROM project_notify WHERE project_id = $1)
         DELETE FROM notify_queue WHERE project_id = $1`,
        [projectId],
      );
    },
    async listNotifications(): Promise<NotificationSetting[]> {
      const rows = await db.query<{
        project_id: number;
        recipients: string | null;
        last_sent_at: number | null;
      }>('SELECT project_id, recipients, last_sent_at FROM project_notify ORDER BY project_id');
      return rows.map((r) => ({
        projectId: r.project_id,
        recipients: r.recipients === null ? null : (JSON.parse(r.recipients) as string[]),
        lastSentAt: r.last_sent_at === null ? null : iso(r.last_sent_at),
      }));
    },
    queueDigests: (at: number, timing: DigestTiming) =>
      db.transaction(async (client) => {
        const due = await client.query<DigestProject & { accountId: number; list: string | null }>(
          `SELECT n.project_id AS "projectId", p.name AS project, p.account_id AS "accountId",
             a.name AS account, n.recipients AS list
           FROM project_notify n JOIN projects p ON p.id = n.project_id
           JOIN accounts a ON a.id = p.account_id
           WHERE (n.last_sent_at IS NULL OR n.last_sent_at <= $1)
             AND EXISTS (SELECT 1 FROM notify_queue q WHERE q.project_id = n.project_id
               AND q.at <= $2)
           FOR UPDATE OF n SKIP LOCKED`,
          [at - timing.intervalMs, at - timing.delayMs],
        );
        let queued = 0;
        for (const project of due.rows) {
          const notices = (
            await client.query<NoticeRow>(
              `SELECT q.id, q.card_id, q.kind, q.release, q.at, c.title, c.status, c.severity,
                 c.occurrence_count, c.regressions
               FROM notify_queue q JOIN cards c ON c.id = q.card_id WHERE q.project_id = $1
               ORDER BY q.id`,
              [project.projectId],
            )
          ).rows;
          if (notices.length === 0) continue; // another instance's digest took them
          const recipients = project.list
            ? (JSON.parse(project.list) as string[])
            : (
                await client.query<{ email: string }>(
                  'SELECT email FROM members WHERE account_id = $1 ORDER BY email',
                  [project.accountId],
                )
              ).rows.map((r) => r.email);
          const mail =
            recipients.length > 0 ? digestMail({ ...project, recipients }, notices) : null;
          await client.query('DELETE FROM notify_queue WHERE id = ANY($1)', [
            notices.map((n) => n.id),
          ]);
          if (!mail) continue;
          await client.query(
            `WITH sent AS (UPDATE project_notify SET last_sent_at = $5 WHERE project_id = $6)
             INSERT INTO outbox (account_id, recipients, subject, body, created_at)
             VALUES ($1, $2, $3, $4, $5)`,
            [
              project.accountId,
              JSON.stringify(recipients),
              mail.subject,
              mail.body,
              at,
              project.projectId,
            ],
          );
          queued++;
        }
        return queued;
      }),
  };
}
