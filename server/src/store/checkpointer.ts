import { Worker } from 'node:worker_threads';

// WAL checkpoints copy committed pages into the database file and fsync it. Run by the committing
// connection (SQLite's default, every 1,000 pages) they stall the event loop for milliseconds at a
// time; here a worker thread with its own connection checkpoints instead (PASSIVE: it never blocks
// the writer), so the ingesting thread only appends to the WAL. Commits and their durability are
// unchanged: a 2xx still follows a committed write.
//
// The thread runs `checkpoint-worker.js`, a file beside this module in the sources and in `dist/`
// (a build entry of its own), with no flags of the host process (`execArgv: []`): `--input-type`,
// `--import` hooks or loaders meant for the host do not reach it.

const WORKER_FILE = new URL('./checkpoint-worker.js', import.meta.url);

/** The main connection still checkpoints itself past this many WAL pages (a safety net). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

export interface Checkpointer {
  /** Stops the thread after one last checkpoint; holds the event loop open until it has exited. */
  close(): Promise<void>;
}

/**
 * Checkpoints `path` every `intervalMs` from a worker thread until closed. Returns undefined when
 * the host cannot start threads (for example under Node's permission model without
 * `--allow-worker`); `onStop` runs when a started thread stops on its own. Either way the caller
 * lets SQLite checkpoint in the committing connection again.
 */
export function startCheckpointer(
  path: string,
  onStop: () => void,
  intervalMs = 200,
): Checkpointer | undefined {
  let worker: Worker;
  try {
    worker = new Worker(WORKER_FILE, { execArgv: [], workerData: { path, intervalMs } });
  } catch (error) {
    console.error(`svc-server: WAL checkpoints stay in the main thread (${String(error)})`);
    return undefined;
  }
  // An idle service must not be kept alive by this thread; close() takes the loop back.
  worker.unref();
  let closing = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (err) => {
    console.error('svc-server: WAL checkpointer stopped; checkpoints stay in the main thread', err);
  });
  void exited.then(() => {
    if (!closing) onStop();
  });
  return {
    close() {
      closing = true;
      worker.ref();
      worker.postMessage('close');
      return exited;
    },
  };
}
