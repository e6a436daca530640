import type { BoardStore } from '../board-types.ts';
import type { PgDeadlineDb } from './pool.ts';

/** The board's reads of environments and releases on PostgreSQL. */
export function createPgEnvReads(db: PgDeadlineDb): Pick<BoardStore, 'listReleases'> {
  return {
    listReleases: async (scope, limit) =>
      (
        await db.query<{ name: string }>(
          `SELECT name FROM releases WHERE project_id = ${'cardId' in scope ? '(SELECT project_id FROM cards WHERE id = $1)' : '$1'}
           ORDER BY id DESC LIMIT $2`,
          ['cardId' in scope ? scope.cardId : scope.projectId, limit],
        )
      ).map((r) => r.name),
  };
}
