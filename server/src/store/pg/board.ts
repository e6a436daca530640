import type { ScanLimits } from '../board-scan.ts';
import type { BoardStore } from '../board-types.ts';
import { createPgBoardAccounts } from './board-accounts.ts';
import { createPgBoardCards } from './board-cards.ts';
import { createPgEnvReads } from './board-envs.ts';
import { pgSignInFailures } from './sign-in-failures.ts';
import { migratePg } from './migrations.ts';
import { createPgPool, withinDeadline } from './pool.ts';
import { createPgSessions } from './sessions.ts';
import { createPgTriage } from './triage.ts';

/** A board query (or status change) PostgreSQL has not answered within this is a 503. */
export const BOARD_DEADLINE_MS = 5000;

export interface PgBoardOptions {
  url: string;
  /** Each query or transaction fails (503) past this; 0 for none. @default BOARD_DEADLINE_MS */
  deadlineMs?: number;
  /** Bounds of a filtered cards page: one window of `rows` keys. @default SCAN_ROWS keys */
  scan?: ScanLimits;
}

/**
 * The `BoardStore` on PostgreSQL: the same answers as the SQLite board store, from the same
 * shapes of index (keyset pagination), over a small pool of its own; the parts of each concern
 * wired together.
 */
export async function openPgBoardStore(opts: PgBoardOptions): Promise<BoardStore> {
  const pool = createPgPool({ url: opts.url, max: 4 });
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const deadlineMs = opts.deadlineMs ?? BOARD_DEADLINE_MS;
  // The server stops a statement past the deadline too, so it does no work nobody waits for.
  pool.on('connect', (client) => {
    client.query(`SET statement_timeout = ${Math.floor(deadlineMs)}`).catch(() => {});
  });
  const db = withinDeadline(pool, deadlineMs);
  const triage = createPgTriage(db);
  return {
    ...createPgSessions(db),
    ...createPgBoardAccounts(db, triage.statusCounts),
    ...createPgBoardCards(db, opts.scan),
    ...createPgEnvReads(db),
    signInFailed: pgSignInFailures(db),
    setCardStatus: triage.setCardStatus,
    cardHistory: triage.cardHistory,
    close: () => pool.end(),
  };
}
