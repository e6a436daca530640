import type { TestProject } from 'vitest/node';
import { startPostgres } from '../../testkit/src/postgres.ts';

/** Global setup of the `server-pg` project: one real PostgreSQL for the whole run. */
export default async function setup(project: TestProject) {
  const postgres = await startPostgres();
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
