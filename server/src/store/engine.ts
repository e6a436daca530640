// The storage port as a whole: what one engine folder (`sqlite/`, `pg/`) provides. An engine
// implements four stores, one per consumer, each opened on a connection or pool of its own (so a
// slow board page or a source-map upload never holds a connection ingestion waits for, and each
// keeps its own deadline): the ingestion and admin `Store` (types.ts), the `BoardStore`
// (board-types.ts), the `SourceMapStore` (sourcemap-types.ts) and the `AlertStore`
// (alert-types.ts). `open.ts` picks the engine from the database URL: adding one is a folder with
// an `engine.ts` and one line there.
import type { AlertStore } from './alert-types.ts';
import type { ScanLimits } from './board-scan.ts';
import type { BoardStore } from './board-types.ts';
import type { SourceMapStore } from './sourcemap-types.ts';
import type { IngestConfig, MaybePromise, Store } from './types.ts';

/** Where an engine keeps its data: a database URL, or (an embedded engine) the data dir. */
export interface EngineLocation {
  /** The database URL; undefined for an engine that keeps its data in `dataDir`. */
  url?: string;
  dataDir: string;
}

/** What the ingestion `Store` is opened with; each engine reads the options it knows. */
export interface EngineStoreOptions extends IngestConfig, EngineLocation {
  /** SQLite: `process` survives a killed process, `power` power loss too. @default 'process' */
  durability?: 'process' | 'power';
  /** PostgreSQL: admin calls and key reads fail as unavailable past this; 0 for none. @default 5000 */
  adminDeadlineMs?: number;
}

/** An error as a driver throws it: the engine's rules read its code and message. */
export type DriverError = Error & { code?: unknown };

export interface Engine {
  /** The ingestion and admin port, its schema migrated on open. */
  openStore(opts: EngineStoreOptions): MaybePromise<Store>;
  /** The board's reads, sessions and triage; `scan` bounds a filtered cards page (tests lower it). */
  openBoardStore(at: EngineLocation & { scan?: ScanLimits }): MaybePromise<BoardStore>;
  /** Source-map uploads, the index reports are mapped through, and mapped reports' raw frames. */
  openSourceMapStore(at: EngineLocation): MaybePromise<SourceMapStore>;
  /** Webhooks, alert rules, their planning and deliveries. */
  openAlertStore(at: EngineLocation & { now?: () => number }): MaybePromise<AlertStore>;
  /**
   * True for this engine's errors that say the database is unreachable or busy for now (the
   * request is answered 503 with Retry-After and the SDKs retry), not that the request is wrong.
   */
  isUnavailable(error: DriverError): boolean;
  /** True for this engine's errors an operator must fix (access refused, no such database). */
  isSetupError(error: DriverError): boolean;
  /** What it runs on, for the start-up log: `SQLite through better-sqlite3 12.11.1`. */
  describe(): string;
}
