import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../../../src/admin.ts';
import { PLANS } from '../../../src/generated/limits.gen.ts';
import { migratePg, PG_MIGRATIONS } from '../../../src/store/pg/migrations.ts';
import { openPgStore } from '../../../src/store/pg/store.ts';
import { startServer } from '../../../src/server.ts';
import type { Store } from '../../../src/store/types.ts';
import { requirePostgres } from '../../store-kind.ts';

// PostgreSQL only, in-process: what several stores on one database must agree on.
const open = (url: string): Promise<Store> =>
  openPgStore({
    url,
    now: Date.now,
    plans: PLANS as never,
    variantCap: 20,
    projectQuotaShare: 0.8,
  });

describe('PostgreSQL store', () => {
  it('four instances starting at once migrate the database once', async () => {
    const url = await requirePostgres();
    const stores = await Promise.all([open(url), open(url), open(url), open(url)]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT version FROM svc_migrations ORDER BY version');
      expect(rows.map((r: { version: number }) => r.version)).toEqual(
        PG_MIGRATIONS.map((_, i) => i + 1),
      );
    } finally {
      await client.end();
      for (const s of stores) await s.close();
    }
  });

  it('a key revoked through one store is unknown to another at once', async () => {
    const url = await requirePostgres();
    const [a, b] = [await open(url), await open(url)];
    try {
      const admin = createAdmin(a);
      const account = await admin.createAccount({ name: 'A', plan: 'team' });
      const project = await admin.createProject({ accountId: account.id, name: 'P' });
      const sec = await admin.createSecretKey({ projectId: project.id, name: 's' });
      expect((await b.findAuthKey('secret', sec.keyId))?.projectId).toBe(project.id);
      await admin.revokeKey(sec.id);
      expect(await b.findAuthKey('secret', sec.keyId)).toBeUndefined();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('each pending e-mail is handed to one instance only', async () => {
    const url = await requirePostgres();
    const [a, b] = [await open(url), await open(url)];
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`INSERT INTO outbox (account_id, recipients, subject, body, created_at)
        SELECT 1, '["a@b.test"]', 'S' || g, 'B', 0 FROM generate_series(1, 10) g`);
      const [x, y] = await Promise.all([a.pendingMail(6), b.pendingMail(6)]);
      const ids = [...x, ...y].map((m) => m.id).sort((m, n) => m - n);
      expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      await a.markMail(x[0]!.id, { sent: false, error: 'down' });
      expect((await b.pendingMail(10)).map((m) => m.id)).toEqual([x[0]!.id]);
    } finally {
      await client.end();
      await a.close();
      await b.close();
    }
  });

  it('startServer({ store }) serves a ready PostgreSQL store', async () => {
    const url = await requirePostgres();
    const server = await startServer({ port: 0, store: await open(url) });
    try {
      const account = await server.admin.createAccount({ name: 'A', plan: 'team' });
      const project = await server.admin.createProject({ accountId: account.id, name: 'P' });
      const pub = await server.admin.createPublishableKey({ projectId: project.id, name: 'k' });
      const res = await fetch(`${server.url}/api/v1/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${pub.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ severity: 'major', title: 'Through a given store' }),
      });
      expect(res.status).toBe(201);
      // The same database seen through another store: the report is there.
      const other = await open(url);
      try {
        expect((await other.listCards(project.id)).map((c) => c.title)).toEqual([
          'Through a given store',
        ]);
      } finally {
        await other.close();
      }
    } finally {
      await server.close();
    }
  });

  it('upgrades a version-1 database with data to the latest version', async () => {
    const url = await requirePostgres();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE TABLE svc_migrations (version integer PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now())`);
      await client.query(PG_MIGRATIONS[0]!);
      await client.query('INSERT INTO svc_migrations (version) VALUES (1)');
      await client.query(`INSERT INTO accounts (name, plan, created_at) VALUES ('A', 'team', 0);
        INSERT INTO projects (account_id, name, created_at) VALUES (1, 'P', 0);
        INSERT INTO cards (project_id, title, description_type, priority, severity, tags, status,
          occurrence_count, created_at, last_seen_at)
        VALUES (1, 'T', 'plain', 'low', 'critical', '[]', 'todo', 5, 0, 7200000)`);
      const pool = new pg.Pool({ connectionString: url });
      try {
        expect(await migratePg(pool)).toBe(PG_MIGRATIONS.length);
        expect(await migratePg(pool)).toBe(PG_MIGRATIONS.length); // idempotent
      } finally {
        await pool.end();
      }
      const { rows } = await client.query(
        'SELECT severity_rank, priority_rank, occurrence_count FROM cards',
      );
      expect(rows).toEqual([{ severity_rank: 4, priority_rank: 1, occurrence_count: 5 }]);
      // The per-hour trigger follows counts from now on.
      await client.query('UPDATE cards SET occurrence_count = 8, last_seen_at = 7300000');
      const hours = await client.query('SELECT hour::integer AS hour, count FROM card_hours');
      expect(hours.rows).toEqual([{ hour: 2, count: 3 }]);
    } finally {
      await client.end();
    }
  });
});
