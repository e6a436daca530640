import { createRequire } from 'node:module';
import type { Engine, EngineLocation } from '../engine.ts';
import { openPgAlertStore } from './alerts.ts';
import { openPgBoardStore } from './board.ts';
import { openPgSourceMapStore } from './sourcemaps.ts';
import { openPgStore } from './store.ts';

// SQLSTATE classes and codes that pass by themselves: connection exceptions (08), insufficient
// resources (53: too many connections, disk full, out of memory), shutdown, crash recovery and
// start-up (57P01 to 57P03), cancelled statements (57014), session timeouts (57P05, 25P03), lock
// and serialisation conflicts (55P03, 40001, 40P01).
const UNAVAILABLE_CLASSES = ['08', '53'];
const UNAVAILABLE_CODES = [
  '57P01',
  '57P02',
  '57P03',
  '57P05',
  '57014',
  '25P03',
  '55P03',
  '40001',
  '40P01',
];
// node-postgres errors that carry no code: lost or timed-out connections, a client that is not
// queryable after such a loss, and a pool that is shutting down.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout|Cannot use a pool after calling end/;
// Access refused (28P01: bad password) and a database that does not exist (3D000).
const SETUP_CODES = ['28P01', '3D000'];

const urlOf = (at: EngineLocation): string => at.url!;

/** PostgreSQL (`pg` driver), for any number of service instances on one database. */
export const engine: Engine = {
  openStore: (opts) => openPgStore({ ...opts, url: urlOf(opts) }),
  openBoardStore: (at) => openPgBoardStore({ url: urlOf(at), scan: at.scan }),
  openSourceMapStore: (at) => openPgSourceMapStore({ url: urlOf(at) }),
  openAlertStore: (at) => openPgAlertStore({ url: urlOf(at), now: at.now }),
  isUnavailable(error) {
    const code = error.code;
    if (
      typeof code === 'string' &&
      code.length === 5 &&
      (UNAVAILABLE_CLASSES.includes(code.slice(0, 2)) || UNAVAILABLE_CODES.includes(code))
    ) {
      return true;
    }
    return UNAVAILABLE_MESSAGES.test(error.message);
  },
  isSetupError: (error) => typeof error.code === 'string' && SETUP_CODES.includes(error.code),
  describe: () => `PostgreSQL through pg ${pgVersion()}`,
};

/** The installed `pg`'s version, read from its package.json (it exports it). */
function pgVersion(): string {
  return (createRequire(import.meta.url)('pg/package.json') as { version: string }).version;
}
