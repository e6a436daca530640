import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server.ts';
import { SOURCEMAPS, signHeaders } from '../../helpers.ts';
import { type BuiltChunk, buildApp } from '../../sourcemaps/build-fixture.ts';
import { stackOf, uploadBody } from '../../sourcemaps/stack.ts';
import { requirePostgres } from '../../store-kind.ts';

// PostgreSQL only: two instances on one database. A build uploads through one; reports of that
// build reach the other, which already holds the project's list of maps in memory (here kept for
// an hour, so only the read-through can show it the new upload): a report naming a chunk its list
// lacks reads the list again (at most once a second), so the new build's errors are mapped into
// the same card as the old build's.
let clock = Date.now();
const dirs: string[] = [];
let a: RunningServer;
let b: RunningServer;
let keys: { publishable: string; keyId: string; secret: string };
let first: BuiltChunk;
let second: BuiltChunk;

beforeAll(async () => {
  const databaseUrl = await requirePostgres();
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'svc-pg-maps-instances-'));
    dirs.push(d);
    return d;
  };
  [first, second] = await Promise.all([buildApp(), buildApp({ extra: 'export const v2 = 2;' })]);
  a = await startServer({ port: 0, dataDir: dir(), databaseUrl });
  b = await startServer({
    port: 0,
    dataDir: dir(),
    databaseUrl,
    now: () => clock,
    sourceMaps: { indexTtlMs: 3_600_000 },
  });
  const account = await a.admin.createAccount({ name: 'Acme', plan: 'team' });
  const projectId = (await a.admin.createProject({ accountId: account.id, name: 'Web' })).id;
  const publishable = (await a.admin.createPublishableKey({ projectId, name: 'web' })).token;
  const secret = await a.admin.createSecretKey({ projectId, name: 'build' });
  keys = { publishable, keyId: secret.keyId, secret: secret.signingSecret };
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const upload = async (chunk: BuiltChunk, release: string) => {
  const body = uploadBody(chunk, release);
  const headers = signHeaders(
    body,
    keys.secret,
    keys.keyId,
    Math.floor(Date.now() / 1000),
    SOURCEMAPS,
  );
  const res = await fetch(a.url + SOURCEMAPS, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  expect(res.status).toBe(201);
};
const reportTo = async (chunk: BuiltChunk, release: string) => {
  // A title of its own: only a description mapped to the same text deduplicates it.
  const res = await fetch(`${b.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.publishable}` },
    body: JSON.stringify({
      severity: 'major',
      title: `Order failed in ${release}`,
      description: stackOf(chunk, 'boom'),
      tags: [`release:${release}`],
      file_name: chunk.path,
    }),
  });
  return (await res.json()).data as { id: number; description: string; file_name: string };
};

it("an upload through one instance maps the next build's reports at another into the same card", async () => {
  await upload(first, 'i-1');
  const before = await reportTo(first, 'i-1'); // b reads the project's list now
  expect(before.file_name).toBe('src/orders.ts');
  await upload(second, 'i-2');
  clock += 1500; // past the one-second bound on reading the list again
  const after = await reportTo(second, 'i-2');
  expect(after.id).toBe(before.id);
  expect(after.description).toBe(before.description);
  expect(after.description).toContain('at loadOrder (src/orders.ts:6:11)');
});
