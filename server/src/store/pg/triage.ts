import {
  CARD_EVENT_COLUMNS,
  type CardEventRow,
  resolutionOf,
  statusCounts,
  toCardEvent,
} from '../board-rows.ts';
import type { BoardStore, StatusChanged } from '../board-types.ts';
import type { PgDeadlineDb } from './pool.ts';

const INT_MAX = 2 ** 31 - 1;

type Triage = Pick<BoardStore, 'setCardStatus' | 'cardHistory'> & {
  statusCounts(projectId: number): Promise<ReturnType<typeof statusCounts>>;
};

/**
 * The board's triage writes and reads on PostgreSQL. A status change takes the same lock as an
 * ingest batch (the row of each account the cards belong to, `FOR NO KEY UPDATE`, in id order)
 * and reads the cards after it, so across instances a report and a status change are decided one
 * after the other: a `done` set while a report is being folded either comes first (the report
 * reopens the card, a regression) or after (the card stays done), never half of each.
 */
export function createPgTriage(db: PgDeadlineDb): Triage {
  return {
    setCardStatus: (c) =>
      db.transaction(async (client) => {
        const ids = [...new Set(c.cardIds)];
        const scope = [ids, c.projectId ?? null];
        await client.query(
          `SELECT id FROM accounts WHERE id IN (SELECT p.account_id FROM cards c
             JOIN projects p ON p.id = c.project_id
             WHERE c.id = ANY($1) AND ($2::integer IS NULL OR c.project_id = $2))
           ORDER BY id FOR NO KEY UPDATE`,
          scope,
        );
        const { rows } = await client.query<{
          id: number;
          title: string;
          status: StatusChanged['from'];
          resolved_env: string | null;
          resolved_release: string | null;
        }>(
          `SELECT id, title, status, resolved_env, resolved_release FROM cards
           WHERE id = ANY($1) AND ($2::integer IS NULL OR project_id = $2) ORDER BY id`,
          scope,
        );
        const [env, release] = resolutionOf(c);
        const changed = rows.filter(
          (r) => r.status !== c.status || r.resolved_env !== env || r.resolved_release !== release,
        );
        if (changed.length > 0) {
          await client.query(
            `WITH u AS (UPDATE cards SET status = $2, resolved_env = $6, resolved_release = $7
               WHERE id = ANY($1))
             INSERT INTO card_events (card_id, at, kind, from_status, to_status, actor, release,
               env)
             SELECT id, $3, 'status', old, $2, $4, $7, $6 FROM unnest($1::integer[], $5::text[])
               AS x(id, old)`,
            [
              changed.map((r) => r.id),
              c.status,
              c.at,
              c.actor,
              changed.map((r) => r.status),
              env,
              release,
            ],
          );
        }
        return rows.map((r) => ({ id: r.id, title: r.title, from: r.status, to: c.status }));
      }),
    // Entry ids are `integer`: a larger `before` (from a URL) means "from the newest".
    cardHistory: async (cardId, limit, before = INT_MAX) =>
      (
        await db.query<CardEventRow>(
          `SELECT ${CARD_EVENT_COLUMNS} FROM card_events
           WHERE card_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`,
          [cardId, Math.min(before, INT_MAX), limit],
        )
      ).map(toCardEvent),
    statusCounts: async (projectId) =>
      statusCounts(
        await db.query<{ status: string; count: number }>(
          'SELECT status, count FROM card_status_counts WHERE project_id = $1',
          [projectId],
        ),
      ),
  };
}
