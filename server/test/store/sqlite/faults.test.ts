import { join } from 'node:path';
import { openSqlite } from '../../../src/store/sqlite/driver.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { report, type Service, spawnService } from '../../helpers.ts';

// Black-box, SQLite: another process (here the test) holds the database's write lock past the
// service's busy_timeout (5 s). The reports that cannot commit are answered 503 with Retry-After,
// not 500; /health says the database is down and /health/ready answers 503 (it tries the write
// lock), the log says so once, and once the lock is gone the service commits again by itself and
// says so with a count. The board's pages are read meanwhile (a write lock does not block WAL
// readers), and a status change waits for the lock without holding the event loop, then 503.
let svc: Service;
beforeAll(async () => {
  svc = await spawnService({ board: true });
});
afterAll(() => svc?.close());

it('a write lock held past busy_timeout: 503 with Retry-After, then back by itself', async () => {
  expect((await svc.post(report({ title: 'Before the lock' }), svc.bearer())).status).toBe(201);
  const other = openSqlite(join(svc.dataDir, 'svc.sqlite'));
  other.exec('BEGIN IMMEDIATE');
  try {
    const locked = await svc.post(report({ title: 'During the lock' }), svc.bearer());
    expect(locked.status).toBe(503);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await locked.json()).toEqual({ message: expect.stringMatching(/unavailable/) });
    const health = await fetch(`${svc.url}/health`);
    expect(await health.json()).toEqual({ ok: true, database: 'down' });
    const ready = await fetch(`${svc.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(Number(ready.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  const after = await svc.post(report({ title: 'During the lock' }), svc.bearer());
  expect(after.status).toBe(201);
  expect(await (await fetch(`${svc.url}/health/ready`)).json()).toEqual({
    ok: true,
    database: 'up',
  });
  const log = svc.proc.output();
  expect(log).toMatch(/database unavailable \(SQLITE_BUSY: database is locked\)/);
  expect(log).toMatch(/database available again after [\d.]+ s; 1 request was answered 503/);
  expect(log).not.toMatch(/internal error/);
  expect((await svc.cards()).map((c) => c.title).sort()).toEqual([
    'Before the lock',
    'During the lock',
  ]);
});

it('the board under a held write lock: pages read at once; a status change waits off the event loop, then 503', async () => {
  const created = await svc.cli('admin-token', 'create', '--name', 'ops', '--json');
  const { token } = JSON.parse(created.stdout) as { token: string };
  const res = await svc.post(report({ title: 'A card to resolve' }), svc.bearer());
  const cardId = ((await res.json()) as { data: { id: number } }).data.id;
  const board = (path: string, init: RequestInit = {}) =>
    fetch(`${svc.url}/board/projects/${svc.projectId}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { authorization: `Bearer ${token}`, ...init.headers },
    });
  const resolve = () =>
    board(`/cards/${cardId}/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'status=done',
    });
  const other = openSqlite(join(svc.dataDir, 'svc.sqlite'));
  other.exec('BEGIN IMMEDIATE');
  try {
    for (const path of ['', `/cards/${cardId}`]) {
      const page = await board(path);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('A card to resolve');
    }
    // The status change waits for the lock; /health is answered meanwhile, before it.
    const order: string[] = [];
    const change = resolve().then(async (r) => {
      order.push('status');
      return { status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.text() };
    });
    await new Promise((r) => setTimeout(r, 200));
    const health = await fetch(`${svc.url}/health`);
    order.push(`health ${health.status}`);
    const refused = await change;
    expect(order).toEqual(['health 200', 'status']);
    expect(refused.status).toBe(503);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.body).toContain('The database is unavailable; try again in');
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  expect((await resolve()).status).toBe(303);
  expect((await svc.cards()).find((c) => c.id === cardId)?.status).toBe('done');
}, 30_000);
