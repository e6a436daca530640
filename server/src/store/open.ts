import type { AlertStore } from './alert-types.ts';
import { learnEngineErrors } from './availability.ts';
import type { ScanLimits } from './board-scan.ts';
import type { BoardStore } from './board-types.ts';
import type { Engine, EngineStoreOptions } from './engine.ts';
import type { SourceMapStore } from './sourcemap-types.ts';
import type { IngestConfig, Store } from './types.ts';

/**
 * The engines, one line each: the URL schemes that select it (the first, with none, is the one
 * used without a URL: SQLite in the data dir) and its folder, loaded on first use, so SQLite users
 * never load `pg`. A third engine is a folder with an `engine.ts` and one line here.
 */
const ENGINES: readonly { schemes: readonly string[]; load: () => Promise<{ engine: Engine }> }[] =
  [
    { schemes: [], load: () => import('./sqlite/engine.ts') },
    { schemes: ['postgres', 'postgresql'], load: () => import('./pg/engine.ts') },
  ];

/** Where the stores live: a database URL selects its engine; without one, SQLite in `dataDir`. */
export interface StoreLocation {
  /** `postgres://…` selects PostgreSQL; without it (or empty), SQLite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
}

export interface OpenStoreOptions extends IngestConfig, StoreLocation {
  /** SQLite: `process` survives a killed process, `power` power loss too. @default 'process' */
  durability?: 'process' | 'power';
  /** PostgreSQL: admin calls and key reads fail as unavailable past this; 0 for none. @default 5000 */
  adminDeadlineMs?: number;
}

/** The engine a database URL selects, loaded; its errors are known to the store's guard from now. */
async function engineFor(databaseUrl: string | undefined): Promise<Engine> {
  const url = databaseUrl?.toLowerCase() ?? '';
  const choice = url
    ? ENGINES.find((e) => e.schemes.some((scheme) => url.startsWith(`${scheme}://`)))
    : ENGINES[0];
  if (!choice) {
    const schemes = ENGINES.flatMap((e) => e.schemes.map((scheme) => `${scheme}://`));
    throw new TypeError(`The database URL must start with ${schemes.join(' or ')}.`);
  }
  const { engine } = await choice.load();
  learnEngineErrors(engine);
  return engine;
}

const locationOf = ({ databaseUrl, dataDir }: StoreLocation) => ({
  url: databaseUrl || undefined,
  dataDir,
});

/** The ingestion and admin store the URL selects, its schema migrated on open. */
export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  const { databaseUrl: _, ...rest } = opts;
  const engineOptions: EngineStoreOptions = { ...rest, ...locationOf(opts) };
  return (await engineFor(opts.databaseUrl)).openStore(engineOptions);
}

/** The board's store beside `openStore`'s; `scan` bounds a filtered cards page (tests lower it). */
export async function openBoardStore(
  at: StoreLocation & { scan?: ScanLimits },
): Promise<BoardStore> {
  return (await engineFor(at.databaseUrl)).openBoardStore({ ...locationOf(at), scan: at.scan });
}

/** The alerts' store beside `openStore`'s. */
export async function openAlertStore(
  at: StoreLocation & { now?: () => number },
): Promise<AlertStore> {
  return (await engineFor(at.databaseUrl)).openAlertStore({ ...locationOf(at), now: at.now });
}

/** The source-map store beside `openStore`'s. */
export async function openSourceMapStore(at: StoreLocation): Promise<SourceMapStore> {
  return (await engineFor(at.databaseUrl)).openSourceMapStore(locationOf(at));
}

/** What the engine a database URL selects runs on, for the start-up log. */
export async function describeEngine(databaseUrl: string | undefined): Promise<string> {
  return (await engineFor(databaseUrl)).describe();
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
