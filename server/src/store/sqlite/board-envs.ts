import { environments, perHour } from '../board-rows.ts';
import type { BoardStore, CardInEnvironment } from '../board-types.ts';
import type { Prepared } from './statements.ts';

type EnvReads = Pick<
  BoardStore,
  'listReleases' | 'listEnvironments' | 'cardEnvironments' | 'cardEnvHours'
>;

/** The board's reads of environments and releases on SQLite. */
export function createSqliteEnvReads(prepared: Prepared): EnvReads {
  return {
    listReleases: (scope, limit) =>
      prepared(
        `SELECT name FROM releases WHERE project_id = ${'cardId' in scope ? '(SELECT project_id FROM cards WHERE id = ?)' : '?'}
         ORDER BY id DESC LIMIT ?`,
      )
        .pluck()
        .all('cardId' in scope ? scope.cardId : scope.projectId, limit) as string[],
    listEnvironments(projectId) {
      const rows = prepared(
        `SELECT env, status, count FROM card_env_status_counts WHERE project_id = ?
         ORDER BY env, status`,
      ).all(projectId) as { env: string; status: string; count: number }[];
      return environments(rows);
    },
    cardEnvironments: (cardId) =>
      prepared(
        `SELECT env, occurrence_count AS occurrenceCount, first_seen_at AS firstSeenAt,
           last_seen_at AS lastSeenAt FROM card_envs WHERE card_id = ? ORDER BY env`,
      ).all(cardId) as CardInEnvironment[],
    cardEnvHours(cardId, env, fromHour, toHour) {
      const rows = prepared(
        `SELECT hour, count FROM card_env_hours WHERE card_id = ? AND env = ?
         AND hour BETWEEN ? AND ?`,
      ).all(cardId, env, fromHour, toHour) as { hour: number; count: number }[];
      return perHour(rows, fromHour, toHour);
    },
  };
}
