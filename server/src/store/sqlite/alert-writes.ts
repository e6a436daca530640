import type Database from 'better-sqlite3';
import type { BatchWrites } from '../../accept/index.ts';

/**
 * What ingestion leaves for alert rules (SQLite), inside the batch's transaction: each new card
 * and regression queued where the project has a rule for that event, and the batch's reports per
 * card, environment and minute added up where it has a frequency rule. A project without rules
 * costs one indexed read per batch.
 */
export function createAlertWrites(db: Database.Database) {
  const q = {
    events: db
      .prepare('SELECT DISTINCT event FROM alert_rules WHERE project_id = ? AND removed_at IS NULL')
      .pluck(),
    notice: db.prepare(
      `INSERT INTO alert_queue (project_id, card_id, event, environment, release, at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    count: db.prepare(
      `INSERT INTO alert_counts (project_id, minute, card_id, environment, count)
       VALUES (?, ?, ?, ?, ?) ON CONFLICT (project_id, minute, card_id, environment)
       DO UPDATE SET count = count + excluded.count`,
    ),
  };
  return {
    write(w: Pick<BatchWrites, 'notices' | 'occurrences'>, idOf: (ref: number) => number) {
      const events = new Map<number, Set<string>>();
      const eventsOf = (projectId: number) => {
        let set = events.get(projectId);
        if (!set) {
          set = new Set(q.events.all(projectId) as string[]);
          events.set(projectId, set);
        }
        return set;
      };
      for (const n of w.notices) {
        if (!eventsOf(n.projectId).has(n.notice.kind)) continue;
        const { kind, environment, release } = n.notice;
        q.notice.run(n.projectId, idOf(n.cardRef), kind, environment, release, n.at);
      }
      for (const o of w.occurrences) {
        if (!eventsOf(o.projectId).has('frequency')) continue;
        q.count.run(o.projectId, o.minute, idOf(o.cardRef), o.environment ?? '', o.count);
      }
    },
  };
}
