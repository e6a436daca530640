import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';

/** How long a board write waits for another process's write lock (then SQLITE_BUSY: a 503). */
export const WRITE_WAIT_MS = 5000;
const RETRY_MS = 20;

/**
 * Writes on `db` that never hold the event loop while another process (the CLI, a backup) has the
 * write lock: SQLite's busy_timeout is a synchronous sleep, so it is off for each attempt, which is
 * retried every 20 ms with the event loop free in between, until `waitMs` has passed. Reads need
 * none of this: in WAL mode a write lock does not block readers.
 */
export function writesWhenFree(db: Database.Database, waitMs = WRITE_WAIT_MS) {
  return async <T>(write: () => T): Promise<T> => {
    const until = performance.now() + waitMs;
    for (;;) {
      const timeout = db.pragma('busy_timeout', { simple: true }) as number;
      db.pragma('busy_timeout = 0');
      try {
        return write();
      } catch (error) {
        const busy = /^SQLITE_BUSY/.test(String((error as { code?: unknown }).code));
        if (!busy || performance.now() >= until) throw error;
      } finally {
        db.pragma(`busy_timeout = ${timeout}`);
      }
      await sleep(RETRY_MS);
    }
  };
}

export type WhenFree = ReturnType<typeof writesWhenFree>;
