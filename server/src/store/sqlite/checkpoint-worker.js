// The WAL checkpointer's thread (see checkpointer.ts). Plain JavaScript in a file of its own, so it
// runs as is from the sources and from `dist/`, whatever flags the host process was started with
// (no `eval`, no loader; `require` only for the driver's resolved path). Pragmas read one value
// (`simple`): no row object, which better-sqlite3 13 builds from a string (driver.ts).
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

// The driver module the main thread loaded (driver.ts picks it by Node-API version).
const Database = createRequire(import.meta.url)(workerData.driver);

const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000', { simple: true });
db.pragma('wal_autocheckpoint = 0', { simple: true });
let closing = false;
let restarting = false;

/** PASSIVE never blocks the writer. */
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)', { simple: true });
  } catch {
    // busy or locked: the next tick tries again
  }
};
const walBytes = () => statSync(`${workerData.path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
let ticks = 0;
const tick = () => {
  if (restarting || closing) return;
  // Under continuous commits a passive checkpoint never finds the whole WAL copied at the moment a
  // writer could start it over, so it grows; past `restartBytes` the main thread pauses its
  // writes (without blocking its event loop) while the WAL is copied and truncated here. The size
  // is looked at every tick, the passive checkpoint runs every `passiveEvery` ticks.
  if (walBytes() > workerData.restartBytes) {
    restarting = true;
    parentPort.postMessage('pause');
  } else if (++ticks % workerData.passiveEvery === 0) {
    checkpoint();
  }
};
const timer = setInterval(tick, workerData.tickMs);
parentPort.on('message', (message) => {
  if (message === 'paused') {
    try {
      db.pragma('wal_checkpoint(TRUNCATE)', { simple: true });
    } catch {
      // busy (a long reader): the next ticks try again
    }
    restarting = false;
    parentPort.postMessage('resume');
    return;
  }
  closing = true;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
