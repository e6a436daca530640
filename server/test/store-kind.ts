import { inject } from 'vitest';
import { createDatabase } from '../../testkit/src/postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set in the `server-pg` project (vitest.pg.config.ts): the PostgreSQL of this test run. */
    postgresUrl?: string;
  }
}

// The same suites run once per store: the `server` project on embedded SQLite, the `server-pg`
// project on a real PostgreSQL started once per run (test/postgres-setup.ts).
const maintenanceUrl = inject('postgresUrl');

export const STORE_KIND: 'sqlite' | 'postgres' = maintenanceUrl ? 'postgres' : 'sqlite';

/** A fresh, empty database for one service under test; undefined on SQLite (a temp data dir). */
export async function testDatabaseUrl(): Promise<string | undefined> {
  return maintenanceUrl ? createDatabase(maintenanceUrl) : undefined;
}

/** A fresh database on the run's PostgreSQL; only in the `server-pg` project. */
export async function requirePostgres(): Promise<string> {
  if (!maintenanceUrl) throw new Error('This suite runs in the server-pg project only.');
  return createDatabase(maintenanceUrl);
}
