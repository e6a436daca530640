// The README's example, pasted into a file of a fresh folder that installs the built package, run
// with node against the reference service: the card the README describes, field by field.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestService, type TestService } from '@svc/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

const run = promisify(execFile);
const RUNTIME = fileURLToPath(new URL('..', import.meta.url));
let service: TestService;
let dir: string;

beforeAll(async () => {
  service = await startTestService();
  dir = await realpath(await mkdtemp(join(tmpdir(), 'svc-runtime-readme-')));
});

afterAll(async () => {
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('the shortest example reports the card the README describes', async () => {
  const readme = await readFile(join(RUNTIME, 'README.md'), 'utf8');
  const example = /```js\n(\/\/ checkout\.mjs[\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  await writeFile(join(dir, 'package.json'), '{"name":"shop","private":true}');
  await mkdir(join(dir, 'node_modules/@svc'), { recursive: true });
  await symlink(RUNTIME, join(dir, 'node_modules/@svc/runtime'), 'dir');
  await writeFile(join(dir, 'checkout.mjs'), example!);
  await run(process.execPath, ['checkout.mjs'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      SERVICE_URL: service.url,
      SERVICE_KEY_ID: service.keys.keyId,
      SERVICE_SIGNING_SECRET: service.keys.signingSecret,
    },
  });
  const card = (await service.cards()).find((c) => c.title === 'Checkout failed');
  const described = /described `([^`]+)`\s+and `([^`]+)`/.exec(readme.replace(/\n/g, ' '));
  expect(card?.file_name).toBe('checkout.mjs');
  expect(card?.tags).toEqual(['checkout']);
  const [first, second] = card!.description!.split('\n');
  expect(first).toBe(described?.[1]);
  expect(second).toBe(`    ${described?.[2]}`);
});

it("docs/testing.md's example passes under node --test, and fails when the card is not reported", async () => {
  const doc = await readFile(join(RUNTIME, 'docs/testing.md'), 'utf8');
  const example = /```js\n(\/\/ card\.test\.mjs[\s\S]*?)```/.exec(doc)?.[1];
  expect(example).toBeDefined();
  await writeFile(join(dir, 'card.test.mjs'), example!);
  const passed = await run(process.execPath, ['--test', 'card.test.mjs'], { cwd: dir });
  expect(passed.stdout).toMatch(/# pass 1\n# fail 0/);
  // The same test over code that reports another title must fail, naming what was reported.
  await writeFile(
    join(dir, 'card.test.mjs'),
    example!.replace("'Card declined', new Error", "'Card refused', new Error"),
  );
  const failed = await run(process.execPath, ['--test', 'card.test.mjs'], { cwd: dir }).catch(
    (error) => error,
  );
  expect(failed.code).toBe(1);
  expect(failed.stdout).toMatch(/Card refused/);
});
