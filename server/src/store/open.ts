import type { AlertStore } from './alert-types.ts';
import type { BoardStore } from './board-types.ts';
import type { IngestConfig } from './types.ts';
import type { PgStoreOptions } from './pg/store.ts';
import { openSqliteStore } from './sqlite/store.ts';
import { openSqliteAlertStore } from './sqlite/alerts.ts';
import { openSqliteBoardStore } from './sqlite/board.ts';
import { openSqliteSourceMapStore } from './sqlite/sourcemaps.ts';
import type { SourceMapStore } from './sourcemap-types.ts';
import type { Store } from './types.ts';

export interface OpenStoreOptions extends IngestConfig {
  /** `postgres://…` selects PostgreSQL; without it, SQLite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  durability?: 'process' | 'power';
  /** PostgreSQL: see `PgStoreOptions.adminDeadlineMs`. @default 5000 */
  adminDeadlineMs?: number;
}

// Nothing here imports `pg` statically: the PostgreSQL modules load on first use, so SQLite users
// never load the driver.

/** True for a URL that selects the PostgreSQL store. */
export const isPostgresUrl = (url: string | undefined): url is string =>
  typeof url === 'string' && /^postgres(ql)?:\/\//i.test(url);

export type { PgStoreOptions };

/** The `Store` on PostgreSQL (schema migrated on open), for N instances on one database. */
export async function openPgStore(opts: PgStoreOptions): Promise<Store> {
  return (await import('./pg/store.ts')).openPgStore(opts);
}

/** The board's store on PostgreSQL (schema migrated on open). */
export async function openPgBoardStore(opts: { url: string }): Promise<BoardStore> {
  return (await import('./pg/board.ts')).openPgBoardStore(opts);
}

/** The store a URL selects: PostgreSQL (loaded only then, migrated on open) or embedded SQLite. */
export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  if (opts.databaseUrl === undefined || opts.databaseUrl === '') return openSqliteStore(opts);
  if (!isPostgresUrl(opts.databaseUrl)) {
    throw new TypeError('The database URL must start with postgres:// or postgresql://.');
  }
  return openPgStore({ ...opts, url: opts.databaseUrl });
}

/** The board's store beside `openStore`'s: PostgreSQL for a `postgres://` URL, else SQLite. */
export async function openBoardStore(opts: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<BoardStore> {
  if (opts.databaseUrl === undefined || opts.databaseUrl === '') {
    return openSqliteBoardStore({ dataDir: opts.dataDir });
  }
  if (!isPostgresUrl(opts.databaseUrl)) {
    throw new TypeError('The database URL must start with postgres:// or postgresql://.');
  }
  return openPgBoardStore({ url: opts.databaseUrl });
}

/** The alerts' store beside `openStore`'s: PostgreSQL for a `postgres://` URL, else SQLite. */
export async function openAlertStore(opts: {
  databaseUrl?: string;
  dataDir: string;
  now?: () => number;
}): Promise<AlertStore> {
  if (opts.databaseUrl === undefined || opts.databaseUrl === '') {
    return openSqliteAlertStore({ dataDir: opts.dataDir, now: opts.now });
  }
  if (!isPostgresUrl(opts.databaseUrl)) {
    throw new TypeError('The database URL must start with postgres:// or postgresql://.');
  }
  return (await import('./pg/alerts.ts')).openPgAlertStore({
    url: opts.databaseUrl,
    now: opts.now,
  });
}

/** The source-map store beside `openStore`'s: PostgreSQL for a `postgres://` URL, else SQLite. */
export async function openSourceMapStore(opts: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<SourceMapStore> {
  if (opts.databaseUrl === undefined || opts.databaseUrl === '') {
    return openSqliteSourceMapStore({ dataDir: opts.dataDir });
  }
  if (!isPostgresUrl(opts.databaseUrl)) {
    throw new TypeError('The database URL must start with postgres:// or postgresql://.');
  }
  return (await import('./pg/sourcemaps.ts')).openPgSourceMapStore({ url: opts.databaseUrl });
}

/** A database URL fit for logs: the password is replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}
