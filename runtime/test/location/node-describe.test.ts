// Descriptions from a real bundled Node app through the real client (built dist/) and the reference
// service: the app minified by esbuild with on-disk maps and content-hashed chunk names, deployed to
// two hosts (other folders, other builds: other chunk hashes) and run from other working
// directories. The descriptions must be byte-identical, made of original project-relative places
// with original function names, so both reports land in one variant of one card.
import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from '@svc/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildMinifiedHost, runDescribe } from './node-fixture.ts';

let service: TestService;
let base: string;

beforeAll(async () => {
  service = await startTestService();
  base = await realpath(await mkdtemp(join(tmpdir(), 'svc-describe-')));
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

/** 1-based line of the `// @marker` comment in a source file of the fixture app. */
async function line(app: string, file: string, marker: string) {
  const lines = (await readFile(join(app, file), 'utf8')).split('\n');
  return lines.findIndex((l) => l.includes(`// @${marker}`)) + 1;
}

it('two hosts and two builds give byte-identical, readable descriptions: one card, one variant', async () => {
  const hostA = join(base, 'home/deploy/shop');
  const hostB = join(base, 'var/www/releases/2/app');
  const [entryA, entryB] = await Promise.all([
    buildMinifiedHost(hostA, 'a'),
    buildMinifiedHost(hostB, 'b'),
  ]);
  expect(entryA.slice(hostA.length)).not.toBe(entryB.slice(hostB.length)); // other chunk hashes
  const env = { SVC_TEST_API_KEY: service.keys.apiKey, SERVICE_URL: service.url };
  const a = await runDescribe(hostA, entryA, tmpdir(), env);
  const b = await runDescribe(hostB, entryB, join(hostB, 'dist'), env);
  expect(a.flushed).toMatchObject({ sent: 2, failed: 0 });
  expect(b.flushed).toMatchObject({ deduplicated: 2, failed: 0 });

  type Payload = { title: string; description: string; file_name: string };
  const byTitle = (payloads: Payload[], title: string) =>
    payloads.find((p) => p.title === title) as Payload;
  const appError = byTitle(a.payloads, 'GET /users failed');
  const depError = byTitle(a.payloads, 'config broken');
  expect(byTitle(b.payloads, 'GET /users failed').description).toBe(appError.description);
  expect(byTitle(b.payloads, 'config broken').description).toBe(depError.description);
  const text: string = appError.description;
  const frames = text.split('\n');
  expect(frames[0]).toBe('Error: GET /users failed');
  expect(frames[1]).toMatch(/^ {4}at Module\.handle \(src\/handler\.ts:\d+:\d+\)$/);
  expect(text).toContain(
    '\nCaused by: Error: could not load users\n    at loadUsers (src/repo.ts:',
  );
  expect(text).toContain(
    `\nCaused by: RangeError: db down: select * from users\n    at query (src/db.ts:${await line(hostA, 'src/db.ts', 'throw-site')}:`,
  );
  expect(text).toMatch(/\n {4}at describe-runner\.mjs:\d+:\d+$/); // the runner, outside the build
  // The names come from the maps: the minified bundle no longer has them.
  const bundled = (await readdir(join(hostA, 'dist/min'))).filter((f) => f.endsWith('.js'));
  const code = await Promise.all(bundled.map((f) => readFile(join(hostA, 'dist/min', f), 'utf8')));
  expect(code.join('\n')).not.toMatch(/function (query|loadUsers)\(/);
  for (const leak of [base, 'file://', 'dist/min', 'index-', 'chunk-', '/tmp/'])
    expect(text).not.toContain(leak);
  expect(depError.description).toMatch(
    /^SyntaxError: bad config\n {4}at explode \(node_modules\/dep-lib\/index\.cjs:\d+:\d+\)\n/,
  );
  expect(appError.file_name).toBe('src/db.ts');

  const card = (await service.cards()).find((c) => c.title === 'GET /users failed');
  expect(card?.occurrence_count).toBe(2);
  expect(card?.variants).toHaveLength(1);
}, 120_000);
