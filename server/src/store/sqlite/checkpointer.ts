import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { gateWrites } from './batch.ts';
import { sqliteDriver } from './driver.ts';

// WAL checkpoints copy committed pages into the database file and fsync it. Run by the committing
// connection (SQLite's default, every 1,000 pages) they stall the event loop for milliseconds at a
// time; here a worker thread with its own connection checkpoints instead (PASSIVE: it never blocks
// the writer), so the ingesting thread only appends to the WAL. Commits and their durability are
// unchanged: a 2xx still follows a committed write.
//
// The thread runs `checkpoint-worker.js`, a file beside this module in the sources and in `dist/`
// (a build entry of its own), with no flags of the host process (`execArgv: []`): `--input-type`,
// `--import` hooks or loaders meant for the host do not reach it.
//
// Under continuous commits the WAL never gets fully copied at a moment a writer could start it
// over, so it grows; once it passes `RESTART_BYTES` the thread asks for a pause: the group commit
// holds its next batch (the event loop keeps serving), the thread copies what is left and
// truncates the WAL (TRUNCATE, which needs no writer), then writes resume. Without it the main
// connection's own fallback checkpoint would run, and fsync, inside every commit past the limit.

const WORKER_FILE = new URL('./checkpoint-worker.js', import.meta.url);

/** The main connection still checkpoints itself past this many WAL pages (a safety net). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 25_000;
/** Past this many bytes of WAL, writes pause while the WAL is copied and truncated. */
const RESTART_BYTES = 64 * 1024 * 1024;
/** How often the thread looks at the WAL's size. */
const TICK_MS = 20;
/** Writes resume after this long even if the thread has not answered. */
const PAUSE_LIMIT_MS = 3000;

export interface Checkpointer {
  /** Stops the thread after one last checkpoint; holds the event loop open until it has exited. */
  close(): Promise<void>;
}

/**
 * Checkpoints `db`'s file every `intervalMs` from a worker thread until closed, pausing `db`'s
 * group commit when the WAL needs truncating. Returns undefined when the host cannot start threads
 * (for example under Node's permission model without `--allow-worker`); `onStop` runs when a
 * started thread stops on its own. Either way the caller lets SQLite checkpoint in the committing
 * connection again.
 */
export function startCheckpointer(
  db: Database.Database,
  onStop: () => void,
  intervalMs = 200,
): Checkpointer | undefined {
  let worker: Worker;
  try {
    worker = new Worker(WORKER_FILE, {
      execArgv: [],
      workerData: {
        path: db.name,
        // The thread loads the driver the main thread chose (driver.ts).
        driver: sqliteDriver().path,
        tickMs: TICK_MS,
        passiveEvery: Math.max(1, Math.round(intervalMs / TICK_MS)),
        restartBytes: RESTART_BYTES,
      },
    });
  } catch (error) {
    console.error(`svc-server: WAL checkpoints stay in the main thread (${String(error)})`);
    return undefined;
  }
  // An idle service must not be kept alive by this thread; close() takes the loop back.
  worker.unref();
  const gate = createGate();
  gateWrites(db, gate);
  let closing = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (err) => {
    console.error('svc-server: WAL checkpointer stopped; checkpoints stay in the main thread', err);
  });
  worker.on('message', (message) => {
    if (message === 'pause' && !closing) {
      // No transaction is open between two callbacks (they are synchronous), and none begins
      // while the gate is closed.
      gate.close(PAUSE_LIMIT_MS);
      worker.postMessage('paused');
    } else if (message === 'resume') {
      gate.open();
    }
  });
  void exited.then(() => {
    gate.open();
    if (!closing) onStop();
  });
  return {
    close() {
      closing = true;
      gate.open();
      worker.ref();
      worker.postMessage('close');
      return exited;
    },
  };
}

function createGate() {
  let closed = false;
  let waiting: (() => void)[] = [];
  let limit: NodeJS.Timeout | undefined;
  const open = () => {
    clearTimeout(limit);
    if (!closed) return;
    closed = false;
    const run = waiting;
    waiting = [];
    for (const fn of run) fn();
  };
  return {
    get closed() {
      return closed;
    },
    whenOpen(fn: () => void) {
      if (closed) waiting.push(fn);
      else fn();
    },
    close(limitMs: number) {
      closed = true;
      limit = setTimeout(open, limitMs);
      limit.unref();
    },
    open,
  };
}
