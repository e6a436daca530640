import type { AlertStore } from '../alert-types.ts';
import { createSqliteDeliveries } from './alert-deliveries.ts';
import { createSqlitePlan } from './alert-plan.ts';
import { createSqliteAlertSetup } from './alert-setup.ts';
import { openConnection } from './connection.ts';
import { writesWhenFree } from './writes-when-free.ts';

/**
 * Alerts on SQLite, on a connection of its own to the service's file (as the board's): its writes
 * wait for another process's lock (the CLI) off the event loop; the planning turn is one
 * transaction. Only the serving process delivers from a data dir, so a claim is exclusive.
 */
export function openSqliteAlertStore(opts: { dataDir: string; now?: () => number }): AlertStore {
  const now = opts.now ?? Date.now;
  const db = openConnection(opts.dataDir, 'NORMAL');
  db.pragma('wal_autocheckpoint = 0'); // the ingesting connection's checkpointer copies the WAL
  const write = writesWhenFree(db);
  const planning = createSqlitePlan(db);
  return {
    ...createSqliteAlertSetup(db, write, now),
    ...createSqliteDeliveries(db, write),
    planAlerts: async (at, planner, opts) =>
      planning.idle(opts)
        ? { raised: 0, more: false }
        : write(() => planning.plan(at, planner, opts)),
    close: () => {
      db.close();
    },
  };
}
