import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// WAL checkpoints copy committed pages into the database file and fsync it. Run by the committing
// connection (SQLite's default, every 1,000 pages) they stall the event loop for milliseconds at a
// time; here a worker thread with its own connection checkpoints instead (PASSIVE: it never blocks
// the writer), so the ingesting thread only appends to the WAL. Commits and their durability are
// unchanged: a 2xx still follows a committed write.

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('wal_autocheckpoint = 0');
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/** The main connection still checkpoints itself past this many WAL pages (a safety net). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

export interface Checkpointer {
  close(): Promise<void>;
}

/** Checkpoints `path` every `intervalMs` from a worker thread until closed. */
export function startCheckpointer(path: string, intervalMs = 200): Checkpointer {
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      path,
      intervalMs,
    },
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (err) => console.error('svc-server: WAL checkpointer stopped', err));
  return {
    close() {
      worker.postMessage('close');
      return exited;
    },
  };
}
