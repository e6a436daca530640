import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migratePg, PG_MIGRATIONS } from '../../../src/store/pg/migrations.ts';
import { report, spawnService } from '../../helpers.ts';
import { requirePostgres } from '../../store-kind.ts';

// PostgreSQL only: triage's schema on a database that already holds cards, and status changes
// made on two service processes at once while both ingest the card's error.
describe('triage on PostgreSQL', () => {
  it('two instances changing and ingesting one card at once keep its status exact', async () => {
    const databaseUrl = await requirePostgres();
    const a = await spawnService({ databaseUrl, board: true });
    const b = await spawnService({ databaseUrl, board: true, noSeed: true });
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const made = await a.cli('admin-token', 'create', '--name', 'ann', '--json');
      const token = (JSON.parse(made.stdout) as { token: string }).token;
      const login = await fetch(`${a.url}/board/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, next: '/board' }).toString(),
      });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const page = await (await fetch(`${b.url}/board`, { headers: { cookie } })).text();
      const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(page)![1]!; // a session of A, at B
      const ingest = (url: string, release: number) =>
        fetch(`${url}/api/v1/tasks`, {
          method: 'POST',
          headers: { ...a.bearer(), 'content-type': 'application/json' },
          body: report({ title: 'Flapping error', tags: [`release:${release}`] }),
        });
      const first = await ingest(a.url, 0);
      const cardId = ((await first.json()) as { data: { id: number } }).data.id;
      const setStatus = (url: string, status: string) =>
        fetch(`${url}/board/projects/${a.projectId}/cards/${cardId}/status`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
          body: new URLSearchParams({ csrf, status }).toString(),
        });

      const statuses = ['done', 'ignored', 'in_progress', 'todo', 'done'];
      let reports = 1;
      for (let round = 0; round < 40; round++) {
        const results = await Promise.all([
          setStatus(a.url, statuses[round % statuses.length]!),
          setStatus(b.url, statuses[(round + 2) % statuses.length]!),
          ingest(a.url, round),
          ingest(b.url, round),
          ingest(b.url, round),
        ]);
        reports += 3;
        expect(results.map((r) => r.status)).toEqual([303, 303, 200, 200, 200]);
      }

      // The history is one chain (each change starts where the last ended, the last ends at the
      // card's status); regressions are counted once each; every report counted.
      const card = (
        await client.query(
          'SELECT status, regressions, occurrence_count, project_id FROM cards WHERE id = $1',
          [cardId],
        )
      ).rows[0];
      const events = (
        await client.query(
          'SELECT kind, from_status, to_status FROM card_events WHERE card_id = $1 ORDER BY id',
          [cardId],
        )
      ).rows as { kind: string; from_status: string; to_status: string }[];
      expect(events.length).toBeGreaterThan(40);
      let status = 'todo';
      for (const [i, e] of events.entries()) {
        expect([i, e.from_status]).toEqual([i, status]);
        expect(e.to_status).not.toBe(e.from_status);
        if (e.kind === 'regression') expect([e.from_status, e.to_status]).toEqual(['done', 'todo']);
        status = e.to_status;
      }
      expect(card.status).toBe(status);
      expect(card.regressions).toBe(events.filter((e) => e.kind === 'regression').length);
      expect(card.regressions).toBeGreaterThan(0);
      expect(card.occurrence_count).toBe(reports);
      const counts = await client.query(
        'SELECT status, count FROM card_status_counts WHERE project_id = $1 AND count <> 0',
        [card.project_id],
      );
      expect(counts.rows).toEqual([{ status: card.status, count: 1 }]);
    } finally {
      await client.end();
      await Promise.all([a.close(), b.close()]);
    }
  });

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
