import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migratePg, PG_MIGRATIONS } from '../../src/store/pg/migrations.ts';
import { requirePostgres } from '../store-kind.ts';

// PostgreSQL only: triage's schema on a database that already holds cards.
describe('triage on PostgreSQL', () => {
  it('upgrades a version-2 database with cards: counts per status, then kept by the trigger', async () => {
    const url = await requirePostgres();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE TABLE svc_migrations (version integer PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now())`);
      for (const [i, sql] of PG_MIGRATIONS.slice(0, 2).entries()) {
        await client.query(sql);
        await client.query('INSERT INTO svc_migrations (version) VALUES ($1)', [i + 1]);
      }
      await client.query(`INSERT INTO accounts (name, plan, created_at) VALUES ('A', 'team', 0);
        INSERT INTO projects (account_id, name, created_at) VALUES (1, 'P', 0), (1, 'Q', 0)`);
      const card = (project: number, title: string) =>
        client.query(
          `INSERT INTO cards (project_id, title, description_type, priority, severity, tags, status,
             occurrence_count, created_at, last_seen_at)
           VALUES ($1, $2, 'plain', 'low', 'minor', '[]', 'todo', 1, 0, 0)`,
          [project, title],
        );
      await card(1, 'a');
      await card(1, 'b');
      await card(2, 'c');
      const pool = new pg.Pool({ connectionString: url });
      try {
        expect(await migratePg(pool)).toBe(PG_MIGRATIONS.length);
      } finally {
        await pool.end();
      }
      const counts = async () =>
        (
          await client.query(
            `SELECT project_id, status, count FROM card_status_counts WHERE count > 0
             ORDER BY project_id, status`,
          )
        ).rows;
      expect(await counts()).toEqual([
        { project_id: 1, status: 'todo', count: 2 },
        { project_id: 2, status: 'todo', count: 1 },
      ]);
      const triage = await client.query(
        'SELECT DISTINCT regressions, last_regressed_at FROM cards',
      );
      expect(triage.rows).toEqual([{ regressions: 0, last_regressed_at: null }]);
      await client.query("UPDATE cards SET status = 'done' WHERE title = 'a'");
      await client.query(
        "UPDATE cards SET status = 'done', occurrence_count = 2 WHERE title = 'a'",
      );
      await card(2, 'd');
      expect(await counts()).toEqual([
        { project_id: 1, status: 'done', count: 1 },
        { project_id: 1, status: 'todo', count: 1 },
        { project_id: 2, status: 'todo', count: 2 },
      ]);
    } finally {
      await client.end();
    }
  });
});
