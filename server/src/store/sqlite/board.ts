import type { ScanLimits } from '../board-scan.ts';
import type { BoardStore } from '../board-types.ts';
import { createSqliteBoardAccounts } from './board-accounts.ts';
import { createSqliteBoardCards } from './board-cards.ts';
import { memorySignInFailures } from '../sign-in-failures.ts';
import { createSqliteEnvReads } from './board-envs.ts';
import { openConnection } from './connection.ts';
import { createSqliteSessions } from './sessions.ts';
import { statementCache } from './statements.ts';
import { createSqliteTriage } from './triage.ts';
import { writesWhenFree } from './writes-when-free.ts';

// The board's reads over the same SQLite file as the ingestion store, on a connection of its own
// (WAL: reads see committed data, never wait for a writer, and never block ingestion for longer
// than one statement); its few writes wait for another process's lock off the event loop.

export interface SqliteBoardOptions {
  dataDir: string;
  /** Bounds of a filtered cards page (tests lower them). @default SCAN_ROWS keys, 1000 a window */
  scan?: ScanLimits;
}

/** The `BoardStore` on SQLite: its own connection, the parts of each concern wired together. */
export function openSqliteBoardStore(opts: SqliteBoardOptions): BoardStore {
  const db = openConnection(opts.dataDir, 'NORMAL');
  // Checkpoints are the ingesting connection's (its checkpointer thread's): a board write must not
  // copy the WAL into the database on the event loop.
  db.pragma('wal_autocheckpoint = 0');
  const write = writesWhenFree(db);
  const prepared = statementCache(db);
  const triage = createSqliteTriage(db, write);
  return {
    ...createSqliteSessions(db, write),
    ...createSqliteBoardAccounts(prepared, triage.statusCounts),
    ...createSqliteBoardCards(prepared, opts.scan),
    ...createSqliteEnvReads(prepared),
    signInFailed: memorySignInFailures(),
    setCardStatus: triage.setCardStatus,
    cardHistory: triage.cardHistory,
    close: () => {
      db.close();
    },
  };
}
