import { join } from 'node:path';
import { openSqlite } from '../../../src/store/sqlite/driver.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Service, spawnService } from '../../helpers.ts';
import { type BuiltChunk, buildApp } from '../../sourcemaps/build-fixture.ts';
import { uploadBody } from '../../sourcemaps/stack.ts';

// Black-box, SQLite: another process (here the test) holds the database's write lock. An upload
// waits for it off the event loop (the service answers meanwhile), then, past the wait (5 s),
// answers 503 with Retry-After having stored nothing; once the lock is gone it is stored.
let svc: Service;
let app: BuiltChunk;
beforeAll(async () => {
  [svc, app] = await Promise.all([spawnService(), buildApp()]);
});
afterAll(() => svc?.close());

it('an upload under a held write lock waits without holding the event loop, then 503; stored once the lock is gone', async () => {
  const other = openSqlite(join(svc.dataDir, 'svc.sqlite'));
  other.exec('BEGIN IMMEDIATE');
  const order: string[] = [];
  try {
    const upload = svc.upload(uploadBody(app, 'locked-1')).then(async (r) => {
      order.push('upload');
      return { status: r.status, retryAfter: r.headers.get('retry-after'), json: await r.json() };
    });
    const health = await fetch(`${svc.url}/health`);
    order.push('health');
    expect(health.status).toBe(200);
    const answer = await upload;
    expect(answer.status).toBe(503);
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(answer.json.message).toMatch(/unavailable/);
    expect(order).toEqual(['health', 'upload']);
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  const listed = await svc.cli('sourcemaps', 'list', '--project', String(svc.projectId), '--json');
  expect(JSON.parse(listed.stdout)).toEqual([]);
  const stored = await svc.upload(uploadBody(app, 'locked-1'));
  expect(stored.status).toBe(201);
}, 60_000);
