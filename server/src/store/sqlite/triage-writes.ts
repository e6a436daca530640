import type Database from 'better-sqlite3';
import type { CardNotice, Regression } from '../../accept/index.ts';

/**
 * What ingestion writes for triage (SQLite), inside the batch's transaction: a regression (the
 * card's new status and count, and its history row) and a notice for the project's next digest,
 * queued only when the project's notifications are on. Both are rare next to plain repeats.
 */
export function createTriageWrites(db: Database.Database) {
  const q = {
    regress: db.prepare(
      `UPDATE cards SET status = ?, regressions = ?, last_regressed_at = ?, resolved_env = NULL,
         resolved_release = NULL WHERE id = ?`,
    ),
    event: db.prepare(
      `INSERT INTO card_events (card_id, at, kind, from_status, to_status, actor, release, env,
         ordering) VALUES (?, ?, 'regression', ?, ?, NULL, ?, ?, ?)`,
    ),
    notice: db.prepare(
      `INSERT INTO notify_queue (project_id, card_id, kind, release, at, env)
       SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM project_notify WHERE project_id = ?)`,
    ),
  };
  return {
    regress(cardId: number, r: Regression) {
      q.regress.run(r.to, r.regressions, r.at, cardId);
      q.event.run(cardId, r.at, r.from, r.to, r.release, r.environment, r.ordering);
    },
    notice(projectId: number, cardId: number, notice: CardNotice, at: number) {
      q.notice.run(
        projectId,
        cardId,
        notice.kind,
        notice.release,
        at,
        notice.environment,
        projectId,
      );
    },
  };
}
