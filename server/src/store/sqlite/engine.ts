import type { Engine } from '../engine.ts';
import { openSqliteAlertStore } from './alerts.ts';
import { openSqliteBoardStore } from './board.ts';
import { DataDirError } from './database-file.ts';
import { sqliteDriver } from './driver.ts';
import { openSqliteSourceMapStore } from './sourcemaps.ts';
import { openSqliteStore } from './store.ts';

// better-sqlite3 codes: another process holds the write lock past busy_timeout, the disk is full or
// failing.
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PROTOCOL)/;

/** Embedded SQLite: one file, `<dataDir>/svc.sqlite`, one ingesting process. */
export const engine: Engine = {
  openStore: (opts) => openSqliteStore(opts),
  openBoardStore: ({ dataDir, scan }) => openSqliteBoardStore({ dataDir, scan }),
  openSourceMapStore: ({ dataDir }) => openSqliteSourceMapStore({ dataDir }),
  openAlertStore: ({ dataDir, now }) => openSqliteAlertStore({ dataDir, now }),
  isUnavailable: (error) => typeof error.code === 'string' && UNAVAILABLE.test(error.code),
  isSetupError: (error) => error instanceof DataDirError,
  describe: () => `SQLite through ${sqliteDriver().label}`,
};
