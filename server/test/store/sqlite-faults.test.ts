import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { report, type Service, spawnService } from '../helpers.ts';

// Black-box, SQLite: another process (here the test) holds the database's write lock past the
// service's busy_timeout (5 s). The reports that cannot commit are answered 503 with Retry-After,
// not 500; /health says the database is down and /health/ready answers 503 (it tries the write
// lock), the log says so once, and once the lock is gone the service commits again by itself and
// says so with a count.
let svc: Service;
beforeAll(async () => {
  svc = await spawnService();
});
afterAll(() => svc?.close());

it('a write lock held past busy_timeout: 503 with Retry-After, then back by itself', async () => {
  expect((await svc.post(report({ title: 'Before the lock' }), svc.bearer())).status).toBe(201);
  const other = new Database(join(svc.dataDir, 'svc.sqlite'));
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
