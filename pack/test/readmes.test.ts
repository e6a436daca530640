// The READMEs' examples, copied from the READMEs into the fresh app (see ./setup.ts) and run
// against the packed reference service.
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { launchChromium, type Spawned, spawnProcess } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readmeBlock, run } from './app.ts';

const { app } = inject('fresh');
const started: Spawned[] = [];

afterAll(async () => {
  for (const p of started) p.kill('SIGKILL');
  await Promise.all(started.map((p) => p.exited));
});

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

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
  let publishable: { token: string };
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
    publishable = await json(
      'key',
      'create',
      '--project',
      '1',
      '--type',
      'publishable',
      '--name',
      'web',
    );
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

  it('Express: the first example of the README reports a failing route through SERVICE_URL', async () => {
    const t0 = Date.now();
    writeFileSync(join(app, 'server.js'), readmeBlock('integrations/express/README.md', 'js'));
    const port = await freePort();
    const server = spawnProcess(process.execPath, ['server.js'], {
      cwd: app,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        SERVICE_URL: serviceUrl,
        SERVICE_KEY_ID: secret.keyId,
        SERVICE_SIGNING_SECRET: secret.signingSecret,
      },
    });
    started.push(server);
    const status = await until(
      () => fetch(`http://127.0.0.1:${port}/orders/42`).then((r) => r.status),
      (s) => s === 500,
    );
    expect(status).toBe(500);
    const title = 'Error: Order <n> could not be loaded (GET /orders/:id)';
    const found = await until(cards, (c) => c.some((x) => x.title === title));
    const card = found.find((x) => x.title === title)!;
    expect(card.tags).toEqual(expect.arrayContaining(['express', 'method:GET']));
    expect(card.file_name).toBe('server.js');
    expect(server.output()).not.toContain(secret.signingSecret);
    console.log(`[pack] Express smoke: ${Date.now() - t0} ms`);
  });

  it('@svc/runtime/testing: the fake-client test of the README passes under node --test, and fails when the code stops reporting', async () => {
    const test = readmeBlock('runtime/README.md', 'js', '@svc/runtime/testing');
    writeFileSync(join(app, 'card.test.mjs'), test);
    const passed = await run(process.execPath, ['--test', 'card.test.mjs'], { cwd: app });
    expect(passed.stdout).toMatch(/# pass 1\n# fail 0/);
    // The same test against code that no longer reports: the assertion must fail.
    writeFileSync(
      join(app, 'card-silent.test.mjs'),
      test.replace("svc.majorHigh('Card declined', error, ['payments']);", ''),
    );
    const failed = await run(process.execPath, ['--test', 'card-silent.test.mjs'], {
      cwd: app,
    }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
    expect(failed.stdout).toMatch(/# fail 1/);
    expect(failed.stdout).toContain(
      'Expected 1 report(s) titled "Card declined", of severity major, of priority high, got 0; nothing was reported',
    );
  });

  it('Vite: the vanilla example of the README, built by Vite, reports a page error from Chromium', async () => {
    const t0 = Date.now();
    const site = join(app, 'vite-app');
    mkdirSync(join(site, 'src'), { recursive: true });
    writeFileSync(join(site, 'index.html'), '<script type="module" src="/src/main.ts"></script>');
    writeFileSync(
      join(site, 'vite.config.ts'),
      readmeBlock('integrations/vite/README.md', 'ts', '// vite.config.ts'),
    );
    writeFileSync(
      join(site, 'src', 'main.ts'),
      readmeBlock('integrations/vite/README.md', 'ts', '// src/main.ts'),
    );
    writeFileSync(
      join(site, '.env'),
      `VITE_SERVICE_URL=${serviceUrl}\nVITE_SERVICE_API_KEY=${publishable.token}\n`,
    );
    const vite = join(app, 'node_modules', 'vite', 'bin', 'vite.js');
    await run(process.execPath, [vite, 'build', '--logLevel', 'error'], { cwd: site });
    const dist = join(site, 'dist');
    const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
    const static_: Server = createServer((req, res) => {
      const path = req.url === '/' ? '/index.html' : (req.url ?? '/').split('?')[0]!;
      try {
        const body = readFileSync(join(dist, path));
        res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
        res.end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => static_.listen(0, '127.0.0.1', r));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(static_.address() as AddressInfo).port}/`);
      await page.evaluate(() => {
        setTimeout(() => {
          throw new Error('Vanilla page failed');
        });
      });
      const found = await until(cards, (c) =>
        c.some((x) => x.title.includes('Vanilla page failed')),
      );
      const card = found.find((x) => x.title.includes('Vanilla page failed'));
      expect(card?.title).toBe('Error: Vanilla page failed (browser)');
      expect(card?.tags).toEqual(
        expect.arrayContaining(['browser', 'window-error', 'env:production']),
      );
      await page.close();
    } finally {
      await browser.close();
      static_.close();
    }
    console.log(`[pack] Vite vanilla: ${Date.now() - t0} ms`);
  });
});
