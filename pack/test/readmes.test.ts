// The README examples that are not a framework's setup (those run in the app each framework's
// generator makes: ./matrix), copied from the READMEs into the fresh app (see ./setup.ts) and run
// against the packed reference service, started as the server README says.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readmeBlock, type Spawned, spawnProcess } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT, run } from './app.ts';

const { app } = inject('fresh');
const started: Spawned[] = [];

afterAll(async () => {
  for (const p of started) p.kill('SIGKILL');
  await Promise.all(started.map((p) => p.exited));
});

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => undefined as T);
    if ((value !== undefined && done(value)) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the READMEs, run from the tarballs against the packed reference service', () => {
  let dataDir: string;
  let serviceUrl: string;
  const cli = async (...args: string[]) => {
    const bin = join(app, 'node_modules', '.bin', 'svc-server');
    const { stdout } = await run(bin, [...args, '--data-dir', dataDir], { cwd: app });
    return stdout;
  };
  const json = async (...args: string[]) => JSON.parse(await cli(...args, '--json'));
  let secret: { keyId: string; signingSecret: string };
  const cards = async () =>
    (await json('cards', 'list', '--project', '1')) as {
      title: string;
      tags: string[];
      file_name: string | null;
    }[];

  beforeAll(async () => {
    // `npx svc-server ...` of the server README, with the packed package's bin.
    dataDir = mkdtempSync(join(tmpdir(), 'svc-pack-data-'));
    await cli('init');
    await json('account', 'create', '--name', 'Shop', '--plan', 'team');
    await json('project', 'create', '--account', '1', '--name', 'Web');
    secret = await json('key', 'create', '--project', '1', '--type', 'secret', '--name', 'api');
    const serve = spawnProcess(join(app, 'node_modules', '.bin', 'svc-server'), [
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
    ]);
    started.push(serve);
    [, serviceUrl] = (await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)) as [
      string,
      string,
    ];
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('the server README`s svc-server, from the packed package, takes the runtime README`s report from the packed runtime', async () => {
    const t0 = Date.now();
    writeFileSync(
      join(app, 'checkout.mjs'),
      readmeBlock(join(ROOT, 'runtime/README.md'), 'js', '// checkout.mjs'),
    );
    const script = spawnProcess(process.execPath, ['checkout.mjs'], {
      cwd: app,
      env: {
        PATH: process.env.PATH,
        SERVICE_URL: serviceUrl,
        SERVICE_KEY_ID: secret.keyId,
        SERVICE_SIGNING_SECRET: secret.signingSecret,
      },
    });
    started.push(script);
    expect(await script.exited).toBe(0);
    const found = await until(cards, (c) => c.some((x) => x.title === 'Checkout failed'));
    const card = found.find((x) => x.title === 'Checkout failed')!;
    expect(card.tags).toEqual(['checkout']);
    expect(card.file_name).toBe('checkout.mjs');
    expect(script.output()).toBe(''); // nothing printed: delivered, no warning
    console.log(`[pack] svc-server and runtime READMEs: ${Date.now() - t0} ms`);
  });

  it('the runtime README`s svc-sourcemaps, from the packed runtime, on esbuild output: uploaded, none left in dist', async () => {
    const block = readmeBlock(join(ROOT, 'runtime/README.md'), 'sh', 'svc-sourcemaps upload');
    mkdirSync(join(app, 'src'), { recursive: true });
    writeFileSync(
      join(app, 'src/main.ts'),
      "export function checkOut(items: string[]) {\n  if (!items.length) throw new TypeError('Cart is empty');\n}\nvoid import('./lazy.ts');\n",
    );
    writeFileSync(join(app, 'src/lazy.ts'), 'export const lazy = 1;\n');
    const lines = block
      .replace(/\\\n/g, ' ')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) =>
        line
          .replace('https://svc.example.com', serviceUrl)
          .replace('svck_...', secret.keyId)
          .replace('svc_sec_...', secret.signingSecret),
      );
    expect(lines).toHaveLength(2);
    const outputs: string[] = [];
    for (const line of lines) {
      const { stdout, stderr } = await run('sh', ['-c', line], {
        cwd: app,
        env: { PATH: process.env.PATH },
      });
      outputs.push(stdout + stderr);
    }
    const chunks = readdirSync(join(app, 'dist/assets')).sort();
    expect(chunks.every((f) => f.endsWith('.js'))).toBe(true);
    expect(outputs[1]).toBe(`[svc] uploaded ${chunks.length} source maps for release 1.4.2\n`);
    const listed = (await json('sourcemaps', 'list', '--project', '1')) as { path: string }[];
    expect(listed.map((m) => m.path).sort()).toEqual(chunks.map((c) => `assets/${c}`));
  });

  it('@svc/runtime/testing: the fake-client test of its guide passes under node --test, and fails when the code stops reporting', async () => {
    const test = readmeBlock(join(ROOT, 'runtime/docs/testing.md'), 'js', '@svc/runtime/testing');
    writeFileSync(join(app, 'card.test.mjs'), test);
    // TAP, whatever the Node: its default reporter for a pipe is TAP on Node 20, spec on Node 24.
    const nodeTest = ['--test', '--test-reporter=tap'];
    const passed = await run(process.execPath, [...nodeTest, 'card.test.mjs'], { cwd: app });
    expect(passed.stdout).toMatch(/# pass 1\n# fail 0/);
    // The same test against code that no longer reports: the assertion must fail.
    writeFileSync(
      join(app, 'card-silent.test.mjs'),
      test.replace(/svc\.majorHigh\('Card declined'.*\n/, ''),
    );
    const failed = await run(process.execPath, [...nodeTest, 'card-silent.test.mjs'], {
      cwd: app,
    }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
    expect(failed.stdout).toMatch(/# fail 1/);
    expect(failed.stdout).toContain(
      'Expected 1 report(s) titled "Card declined", of severity major, of priority high, got 0; nothing was reported',
    );
  });
});
