import type Database from 'better-sqlite3';
import type { BoardStore } from '../board-types.ts';

type Prepared = (sql: string) => Database.Statement;

/** The board's reads of environments and releases on SQLite. */
export function createSqliteEnvReads(prepared: Prepared): Pick<BoardStore, 'listReleases'> {
  return {
    listReleases: (scope, limit) =>
      prepared(
        `SELECT name FROM releases WHERE project_id = ${'cardId' in scope ? '(SELECT project_id FROM cards WHERE id = ?)' : '?'}
         ORDER BY id DESC LIMIT ?`,
      )
        .pluck()
        .all('cardId' in scope ? scope.cardId : scope.projectId, limit) as string[],
  };
}
