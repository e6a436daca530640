import type pg from 'pg';
import type { CardNotice, Regression } from '../../accept/index.ts';

/**
 * What ingestion writes for triage (PostgreSQL), inside the batch's transaction and under its
 * account locks, as `../triage-writes.ts` does on SQLite: a regression (status, count, history
 * row) and a notice for the next digest when the project's notifications are on.
 */
export async function writeRegression(client: pg.PoolClient, cardId: number, r: Regression) {
  await client.query(
    `WITH c AS (UPDATE cards SET status = $2, regressions = $3, last_regressed_at = $4 WHERE id = $1)
     INSERT INTO card_events (card_id, at, kind, from_status, to_status, actor, release)
     VALUES ($1, $4, 'regression', $5, $2, NULL, $6)`,
    [cardId, r.to, r.regressions, r.at, r.from, r.release],
  );
}

export async function queueNotice(
  client: pg.PoolClient,
  projectId: number,
  cardId: number,
  notice: CardNotice,
  at: number,
) {
  await client.query(
    `INSERT INTO notify_queue (project_id, card_id, kind, release, at)
     SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM project_notify WHERE project_id = $1)`,
    [projectId, cardId, notice.kind, notice.release, at],
  );
}
