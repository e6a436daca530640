// The WAL checkpointer's thread (see checkpointer.ts). Plain JavaScript in a file of its own, so it
// runs as is from the sources and from `dist/`, whatever flags the host process was started with
// (no `eval`, no loader, no `require`).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('wal_autocheckpoint = 0');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or locked: the next tick tries again; the writer's own fallback bounds the WAL.
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
