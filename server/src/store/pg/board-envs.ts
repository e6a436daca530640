import { environments, perHour } from '../board-rows.ts';
import type { BoardStore, CardInEnvironment } from '../board-types.ts';
import type { PgDeadlineDb } from './pool.ts';
import { withoutNul } from './text.ts';

type EnvReads = Pick<
  BoardStore,
  'listReleases' | 'listEnvironments' | 'cardEnvironments' | 'cardEnvHours'
>;

/** The board's reads of environments and releases on PostgreSQL. */
export function createPgEnvReads(db: PgDeadlineDb): EnvReads {
  return {
    listReleases: async (scope, limit) =>
      (
        await db.query<{ name: string }>(
          `SELECT name FROM releases WHERE project_id = ${'cardId' in scope ? '(SELECT project_id FROM cards WHERE id = $1)' : '$1'}
           ORDER BY id DESC LIMIT $2`,
          ['cardId' in scope ? scope.cardId : scope.projectId, limit],
        )
      ).map((r) => r.name),
    listEnvironments: async (projectId) =>
      environments(
        await db.query<{ env: string; status: string; count: number }>(
          `SELECT env, status, count FROM card_env_status_counts WHERE project_id = $1
           ORDER BY env COLLATE "C", status`,
          [projectId],
        ),
      ),
    cardEnvironments: (cardId) =>
      db.query<CardInEnvironment>(
        `SELECT env, occurrence_count AS "occurrenceCount", first_seen_at AS "firstSeenAt",
           last_seen_at AS "lastSeenAt" FROM card_envs WHERE card_id = $1 ORDER BY env COLLATE "C"`,
        [cardId],
      ),
    async cardEnvHours(cardId, env, fromHour, toHour) {
      const rows = await db.query<{ hour: number; count: number }>(
        `SELECT hour, count FROM card_env_hours WHERE card_id = $1 AND env = $2
         AND hour BETWEEN $3 AND $4`,
        [cardId, withoutNul(env), fromHour, toHour],
      );
      return perHour(rows, fromHour, toHour);
    },
  };
}
