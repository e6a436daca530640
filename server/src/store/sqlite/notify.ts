import type Database from 'better-sqlite3';
import { type DigestProject, digestMail, type NoticeRow } from '../digest-mail.ts';
import { iso } from '../rows.ts';
import type { DigestTiming, NotificationSetting } from '../types.ts';

interface DueRow {
  projectId: number;
  project: string;
  accountId: number;
  account: string;
  recipients: string | null;
}

/**
 * Per-project notifications on SQLite: the settings, and the digests. Ingestion queues a notice
 * per new card and regression (`triage-writes.ts`); `queueDigests` turns a project's notices into
 * one outbox e-mail once the oldest has waited `delayMs` and the project's last e-mail is
 * `intervalMs` old, so a storm of new cards makes one e-mail, not one per card.
 */
export function createSqliteNotify(db: Database.Database, now: () => number) {
  const q = {
    on: db.prepare(
      `INSERT INTO project_notify (project_id, recipients, created_at) VALUES (?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET recipients = excluded.recipients`,
    ),
    off: db.prepare('DELETE FROM project_notify WHERE project_id = ?'),
    forget: db.prepare('DELETE FROM notify_queue WHERE project_id = ?'),
    list: db.prepare(
      'SELECT project_id, recipients, last_sent_at FROM project_notify ORDER BY project_id',
    ),
    due: db.prepare(
      `SELECT n.project_id AS projectId, p.name AS project, p.account_id AS accountId,
         a.name AS account, n.recipients
       FROM project_notify n JOIN projects p ON p.id = n.project_id
       JOIN accounts a ON a.id = p.account_id
       WHERE (n.last_sent_at IS NULL OR n.last_sent_at <= ?)
         AND EXISTS (SELECT 1 FROM notify_queue q WHERE q.project_id = n.project_id AND q.at <= ?)`,
    ),
    notices: db.prepare(
      `SELECT q.id, q.card_id, q.kind, q.release, q.at, c.title, c.status, c.severity,
         c.occurrence_count, c.regressions
       FROM notify_queue q JOIN cards c ON c.id = q.card_id WHERE q.project_id = ? ORDER BY q.id`,
    ),
    members: db.prepare('SELECT email FROM members WHERE account_id = ? ORDER BY email').pluck(),
    done: db.prepare('DELETE FROM notify_queue WHERE project_id = ? AND id <= ?'),
    sent: db.prepare('UPDATE project_notify SET last_sent_at = ? WHERE project_id = ?'),
    mail: db.prepare(
      `INSERT INTO outbox (account_id, recipients, subject, body, created_at)
       VALUES (?, ?, ?, ?, ?)`,
    ),
  };
  const setNotifications = db.transaction(
    (projectId: number, on: { recipients: string[] | null } | null, at: number) => {
      if (on) {
        q.on.run(projectId, on.recipients && JSON.stringify(on.recipients), at);
      } else {
        q.off.run(projectId);
        q.forget.run(projectId);
      }
    },
  );
  const queueDigests = db.transaction((at: number, timing: DigestTiming) => {
    let queued = 0;
    for (const due of q.due.all(at - timing.intervalMs, at - timing.delayMs) as DueRow[]) {
      const notices = q.notices.all(due.projectId) as NoticeRow[];
      const recipients = due.recipients
        ? (JSON.parse(due.recipients) as string[])
        : (q.members.all(due.accountId) as string[]);
      const to: DigestProject = { ...due, recipients };
      const mail = recipients.length > 0 ? digestMail(to, notices) : null;
      q.done.run(due.projectId, notices.at(-1)!.id);
      if (!mail) continue;
      q.mail.run(due.accountId, JSON.stringify(recipients), mail.subject, mail.body, at);
      q.sent.run(at, due.projectId);
      queued++;
    }
    return queued;
  });
  return {
    setNotifications: (projectId: number, on: { recipients: string[] | null } | null) =>
      setNotifications(projectId, on, now()),
    listNotifications: (): NotificationSetting[] =>
      (
        q.list.all() as {
          project_id: number;
          recipients: string | null;
          last_sent_at: number | null;
        }[]
      ).map((r) => ({
        projectId: r.project_id,
        recipients: r.recipients === null ? null : (JSON.parse(r.recipients) as string[]),
        lastSentAt: r.last_sent_at === null ? null : iso(r.last_sent_at),
      })),
    // Most ticks find nothing due: only then is the write lock taken (and the check repeated).
    queueDigests: (at: number, timing: DigestTiming) =>
      q.due.all(at - timing.intervalMs, at - timing.delayMs).length === 0
        ? 0
        : queueDigests.immediate(at, timing),
  };
}
