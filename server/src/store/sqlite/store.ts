import type Database from 'better-sqlite3';
import { writesPaused } from './batch.ts';
import {
  type Checkpointer,
  FALLBACK_AUTOCHECKPOINT_PAGES,
  startCheckpointer,
} from './checkpointer.ts';
import { openConnection } from './connection.ts';
import { createIngest } from './ingest.ts';
import { createSqliteAccounts } from './accounts.ts';
import { createSqliteKeys } from './keys.ts';
import { createSqliteMail } from './mail.ts';
import { createSqliteNotify } from './notify.ts';
import { type CardRow, toListedCard, type VariantRow } from '../rows.ts';
import { ftsQuery } from '../search.ts';
import type { IngestConfig, Store } from '../types.ts';

export interface SqliteStoreOptions extends IngestConfig {
  /** Directory holding `svc.sqlite`; created when missing. */
  dataDir: string;
  /**
   * `process` (default): WAL + synchronous=NORMAL, a committed write survives a killed process.
   * `power`: synchronous=FULL, it also survives power loss, at a throughput cost.
   */
  durability?: 'process' | 'power';
  /**
   * Checkpoint the WAL from a worker thread (see checkpointer.ts), started with the first ingested
   * report, rather than in the committing thread. @default true
   */
  backgroundCheckpoint?: boolean;
}

/** The `Store` on embedded SQLite: one connection, the parts of each concern wired together. */
export function openSqliteStore(opts: SqliteStoreOptions): Store {
  const db = openConnection(opts.dataDir, opts.durability === 'power' ? 'FULL' : 'NORMAL');
  const { ingest, rateState, invalidate } = createIngest(db, opts);
  const checkpoints = lazyCheckpointer(db, opts.backgroundCheckpoint !== false);
  return {
    ...createSqliteAccounts(db, opts.now, invalidate),
    ...createSqliteKeys(db, opts.now),
    rateState,
    ingest: (key, report) => {
      checkpoints.start();
      return ingest(key, report);
    },
    listCards: listCards(db),
    ...createSqliteMail(db),
    ping: () => ping(db),
    ...createSqliteNotify(db, opts.now),
    close: async () => {
      await checkpoints.close();
      db.close();
    },
  };
}

/**
 * The WAL's checkpointer thread, started with the first report (`start`), so admin-only stores
 * (the CLI) never start a thread. Where threads are not allowed SQLite's own checkpoints stay.
 */
function lazyCheckpointer(db: Database.Database, background: boolean) {
  let checkpointer: Checkpointer | undefined;
  let tried = !background;
  return {
    start() {
      if (tried) return;
      tried = true;
      const inMainThread = () => {
        if (db.open) db.pragma('wal_autocheckpoint = 1000');
      };
      checkpointer = startCheckpointer(db, inMainThread);
      if (checkpointer) db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    },
    close: async () => {
      await checkpointer?.close();
    },
  };
}

/** A project's cards with their variants, as the admin API lists them. */
function listCards(db: Database.Database): Store['listCards'] {
  const cardRows = db.prepare(
    'SELECT * FROM cards WHERE project_id = ? AND id > ? ORDER BY id LIMIT ?',
  );
  const foundRows = db.prepare(
    `SELECT * FROM cards WHERE project_id = ? AND id > ?
       AND id IN (SELECT rowid FROM cards_search WHERE cards_search MATCH ?) ORDER BY id LIMIT ?`,
  );
  const variantRows = db.prepare(
    'SELECT * FROM variants WHERE card_id = ? ORDER BY aggregate, last_seen_at DESC, id DESC',
  );
  return (projectId, page) => {
    const [after, limit] = [page?.after ?? 0, page?.limit ?? -1];
    const rows = page?.search
      ? foundRows.all(projectId, after, ftsQuery(page.search), limit)
      : cardRows.all(projectId, after, limit);
    return (rows as CardRow[]).map((row) =>
      toListedCard(row, variantRows.all(row.id) as VariantRow[]),
    );
  };
}

/**
 * Readiness: can this connection take the write lock now? (Waits 50 ms at most: it runs on the
 * event loop.) While the checkpointer has paused writes on purpose, yes.
 */
function ping(db: Database.Database): void {
  if (writesPaused(db)) return;
  db.pragma('busy_timeout = 50');
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
  } finally {
    db.pragma('busy_timeout = 5000');
  }
}
