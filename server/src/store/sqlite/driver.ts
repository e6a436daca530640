import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { codeFromStringsAllowed } from '../../core/code-from-strings.ts';

// The SQLite driver for the Node that runs the service. better-sqlite3 12 is built on Node's C++
// `ObjectWrap`, whose header in Node 24.21 registers a cleanup hook per object and removes it in
// the destructor through the isolate's current environment. V8 collects a garbage Statement in a
// GC it may run from a platform task, outside any context, where there is no current environment:
// the removal asserts and the process aborts (`RemoveEnvironmentCleanupHook`, exit 134). Every
// statement the service prepares for a query and drops is such garbage, so a Node 24 service died
// within seconds. better-sqlite3 13 is the same API on Node-API (`Napi::ObjectWrap`, no such
// hook), prebuilt in its npm package (no compiler at install), and needs Node-API 10 (Node 22.14+
// and 24; on Node 20 its addon crashes as it loads). So: 13 where Node-API 10 is there, 12 (the
// package's `better-sqlite3`, compiled at install) on Node 20. Both are optional dependencies; npm
// skips 13 on Node 20 by its `engines`.

export type SqliteDatabase = BetterSqlite3.Database;
export type SqliteOptions = BetterSqlite3.Options;

/** The package name of each driver (13 is installed under an npm alias). */
export const SQLITE_DRIVERS = {
  napi: 'better-sqlite3-napi',
  node20: 'better-sqlite3',
} as const;

/** The driver for a Node with this Node-API version (`process.versions.napi`). */
export function sqliteDriverName(napiVersion = Number(process.versions.napi)): string {
  return napiVersion >= 10 ? SQLITE_DRIVERS.napi : SQLITE_DRIVERS.node20;
}

const require = createRequire(import.meta.url);

export interface SqliteDriver {
  /** The package loaded (`better-sqlite3-napi` is better-sqlite3 13 under an npm alias). */
  name: string;
  /** Its entry file, which the checkpoint thread loads too. */
  path: string;
  /** `better-sqlite3 13.2.0`, as `svc-server serve` prints it. */
  label: string;
  Database: typeof BetterSqlite3;
}
let loaded: SqliteDriver | undefined;

/** The driver of this process, loaded once; says which package is missing when it is. */
export function sqliteDriver(): SqliteDriver {
  if (loaded) return loaded;
  const name = sqliteDriverName();
  let path: string;
  try {
    path = require.resolve(name);
  } catch {
    throw new Error(
      `svc-server: the SQLite driver for Node ${process.versions.node} (${name}) is not installed; ` +
        'install @svc/server again with this Node (npm installs the driver that fits it).',
    );
  }
  const { version } = require(`${name}/package.json`);
  const Database: typeof BetterSqlite3 = require(path);
  if (name === SQLITE_DRIVERS.napi && !codeFromStringsAllowed()) initializeWithClosures(path);
  loaded = { name, path, label: `better-sqlite3 ${version}`, Database };
  return loaded;
}

/** The row objects better-sqlite3 13 makes for each column list: built from a string by default. */
function rowFactory(...keys: string[]) {
  return (...values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++)
      Object.defineProperty(row, keys[i]!, {
        value: values[i],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return row;
  };
}

/**
 * better-sqlite3 13 gives its addon, when the first database opens, a row factory that builds
 * each row's constructor from a string (`Function`), which a process started with
 * `--disallow-code-generation-from-strings` refuses. There, and only there, the addon is
 * initialized first with closures of the same behaviour (the package's own `lib/binding.js`, the
 * module its entry uses, so the entry finds it initialized and keeps it). 12 builds rows natively.
 */
function initializeWithClosures(entry: string): void {
  const addon = require(join(dirname(entry), 'binding.js')).getBinding();
  if (addon.isInitialized) return;
  const SqliteError = require(entry).SqliteError;
  const arrayAppender = (array: unknown[], ...values: unknown[]) => {
    array.push(...values);
  };
  const recordFactory = (value: unknown) => ({ value, done: false });
  addon.initialize(SqliteError, (...v: unknown[]) => v, arrayAppender, rowFactory, recordFactory);
  addon.isInitialized = true;
}

/** Opens a SQLite database file with this Node's driver. */
export function openSqlite(path: string, options?: SqliteOptions): SqliteDatabase {
  return new (sqliteDriver().Database)(path, options);
}
