import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPostgres, startPostgres } from '../../../../testkit/src/postgres.ts';
import { type RunningServer, startServer } from '../../../src/server.ts';
import { SOURCEMAPS, signHeaders } from '../../helpers.ts';
import { type BuiltChunk, buildApp } from '../../sourcemaps/build-fixture.ts';
import { stackOf, uploadBody } from '../../sourcemaps/stack.ts';

// PostgreSQL only, on a cluster of its own (it is stopped and frozen): uploads and the reports
// that need a map answer 503 with Retry-After while the database is away, store nothing half, and
// are served (and mapped) again once it is back; a frozen database fails a report's map reads
// within their deadline instead of holding it.
let postgres: RunningPostgres;
let dataDir: string;
let server: RunningServer;
let app: BuiltChunk;
const projects: { id: number; publishable: string; keyId: string; secret: string }[] = [];

beforeAll(async () => {
  [postgres, app] = await Promise.all([startPostgres(), buildApp()]);
  const databaseUrl = await postgres.createDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'svc-pg-maps-faults-'));
  server = await startServer({ port: 0, dataDir, databaseUrl });
  const account = await server.admin.createAccount({ name: 'Acme', plan: 'team' });
  for (const name of ['Web', 'Shop']) {
    const id = (await server.admin.createProject({ accountId: account.id, name })).id;
    const publishable = (await server.admin.createPublishableKey({ projectId: id, name: 'web' }))
      .token;
    const secret = await server.admin.createSecretKey({ projectId: id, name: 'build' });
    projects.push({ id, publishable, keyId: secret.keyId, secret: secret.signingSecret });
  }
});

afterAll(async () => {
  await server?.close();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const upload = (p: (typeof projects)[number], release: string) => {
  const body = uploadBody(app, release);
  const headers = signHeaders(body, p.secret, p.keyId, Math.floor(Date.now() / 1000), SOURCEMAPS);
  return fetch(server.url + SOURCEMAPS, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    signal: AbortSignal.timeout(40_000),
  });
};
const report = (p: (typeof projects)[number], release: string, title: string) =>
  fetch(`${server.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${p.publishable}` },
    body: JSON.stringify({
      severity: 'major',
      title,
      description: stackOf(app, 'boom'),
      tags: [`release:${release}`],
    }),
    signal: AbortSignal.timeout(40_000),
  });

async function expectUnavailable(answer: Promise<Response>) {
  const res = await answer;
  expect(res.status).toBe(503);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect((await res.json()).message).toMatch(/unavailable/i);
}

async function until(ok: () => Promise<boolean>) {
  for (let i = 0; i < 300; i++) {
    if (await ok()) return;
    await sleep(100);
  }
  throw new Error('not served again');
}

describe('source maps against PostgreSQL in trouble', () => {
  it('stopped: uploads and mapped reports answer 503 with Retry-After, then are served and mapped again', async () => {
    const [web] = projects;
    expect((await upload(web!, 'f-1')).status).toBe(201);
    await postgres.halt('fast');
    try {
      await expectUnavailable(upload(web!, 'f-2'));
      await expectUnavailable(report(web!, 'f-1', 'While stopped'));
    } finally {
      await postgres.resume();
    }
    await until(async () => (await upload(web!, 'f-2')).status < 300);
    const res = await report(web!, 'f-2', 'After the restart');
    expect(res.status).toBe(201);
    expect((await res.json()).data.description).toContain('at loadOrder (src/orders.ts:6:11)');
    // The reports answered 503 stored nothing (the SDKs send them again).
    const cards = await server.admin.listCards(web!.id);
    expect(cards.map((c) => c.title)).toEqual(['After the restart']);
  }, 90_000);

  it("frozen: a report whose project's maps are not in memory gives up within the read deadline (503)", async () => {
    const shop = projects[1]!;
    expect((await upload(shop, 'z-1')).status).toBe(201);
    // The upload dropped the project's index; the next report must read it from the database.
    postgres.freeze();
    const started = performance.now();
    try {
      await expectUnavailable(report(shop, 'z-1', 'While frozen'));
    } finally {
      postgres.thaw();
    }
    expect(performance.now() - started).toBeLessThan(20_000);
    await until(async () => (await report(shop, 'z-1', 'After the thaw')).status < 300);
  }, 90_000);
});
