// The published packages as a new user gets them: `npm pack` of every public package, installed
// into one fresh app outside the repository (see ./app.ts), then loaded, type-checked and run.
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { launchChromium, type Spawned, spawnProcess } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshApp, PACKAGES, pack, type Packed, readmeBlock, run } from './app.ts';

let dest: string;
let app: string;
let packed: Packed[];
const started: Spawned[] = [];
const timings: Record<string, number> = {};

beforeAll(async () => {
  const t0 = Date.now();
  dest = mkdtempSync(join(tmpdir(), 'svc-tarballs-'));
  packed = [];
  for (const dir of PACKAGES) packed.push(await pack(dir, dest));
  timings.pack = Date.now() - t0;
  app = await freshApp(packed);
  timings.install = Date.now() - t0 - timings.pack;
  console.log(`[pack] npm pack ${timings.pack} ms, npm install into ${app} ${timings.install} ms`);
});

afterAll(async () => {
  for (const p of started) p.kill('SIGKILL');
  await Promise.all(started.map((p) => p.exited));
  if (app) rmSync(app, { recursive: true, force: true });
  if (dest) rmSync(dest, { recursive: true, force: true });
});

/** Export conditions found under one `exports` entry (nested conditions included). */
function conditions(entry: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') found.add('default');
    else if (v && typeof v === 'object')
      for (const [k, sub] of Object.entries(v)) {
        found.add(k);
        if (typeof sub !== 'string') walk(sub);
      }
  };
  walk(entry);
  return found;
}

describe('the tarballs', () => {
  it('ship a LICENSE, package.json in exports, no source maps, no stray files', () => {
    for (const p of packed) {
      expect(p.files, p.name).toContain('LICENSE');
      expect(
        p.files.filter((f) => f.endsWith('.map')),
        p.name,
      ).toEqual([]);
      // Only what the package is: its build, its bin shim, the type shim of the Vite plugin, the
      // node10 pointer of a subpath (`kit/package.json`).
      expect(
        p.files.filter(
          (f) =>
            !/^(dist\/|bin\/|LICENSE$|README\.md$|package\.json$|virtual\.d\.ts$|kit\/package\.json$)/.test(
              f,
            ),
        ),
        p.name,
      ).toEqual([]);
      expect(
        p.files.filter((f) => /^dist\/.*README/.test(f)),
        p.name,
      ).toEqual([]);
      expect(p.manifest.exports['./package.json'], p.name).toBe('./package.json');
      expect(p.manifest.license, p.name).toBe('MIT');
    }
  });

  it('depend on their siblings by exact version, and @svc/server on no client code', () => {
    const versions = Object.fromEntries(packed.map((p) => [p.name, p.version]));
    for (const p of packed)
      for (const [dep, range] of Object.entries<string>(p.manifest.dependencies ?? {}))
        if (dep in versions) expect([p.name, dep, range]).toEqual([p.name, dep, versions[dep]]);
    const server = packed.find((p) => p.name === '@svc/server')!;
    expect(Object.keys(server.manifest.dependencies)).not.toContain('@svc/runtime');
  });
});

describe('every exports subpath in plain Node', () => {
  it('loads with import(), and with require() where a require condition is declared', async () => {
    const cases: [string, string][] = [];
    for (const p of packed)
      for (const [sub, entry] of Object.entries(p.manifest.exports as Record<string, unknown>)) {
        const spec = sub === '.' ? p.name : `${p.name}/${sub.slice(2)}`;
        const found = conditions(entry);
        if (found.has('import') || found.has('default')) cases.push([spec, 'import']);
        if (found.has('require')) cases.push([spec, 'require']);
      }
    writeFileSync(
      join(app, 'load.mjs'),
      `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const out = [];
for (const [spec, how] of ${JSON.stringify(cases)}) {
  try {
    const mod =
      how === 'require'
        ? require(spec)
        : await import(spec, spec.endsWith('.json') ? { with: { type: 'json' } } : undefined);
    out.push([spec, how, Object.keys(mod).length > 0 ? 'ok' : 'empty']);
  } catch (error) {
    out.push([spec, how, String(error?.message ?? error).split('\\n')[0]]);
  }
}
console.log(JSON.stringify(out));
`,
    );
    const { stdout } = await run(process.execPath, ['load.mjs'], { cwd: app });
    const results = JSON.parse(stdout.trim().split('\n').pop()!) as [string, string, string][];
    console.log(
      `[pack] ${results.length} subpath loads: ${results.map((r) => `${r[0]} ${r[1]}`).join(', ')}`,
    );
    expect(results.filter((r) => r[2] !== 'ok')).toEqual([]);
    expect(results).toHaveLength(cases.length);
    // Among them the ones that failed before: @svc/next in plain Node ESM (next/server.js), and
    // the integrations' shared helpers, which every integration package imports.
    expect(cases).toEqual(
      expect.arrayContaining([
        ['@svc/next', 'import'],
        ['@svc/next', 'require'],
        ['@svc/runtime/kit', 'import'],
        ['@svc/runtime/kit', 'require'],
      ]),
    );
  });
});

const CONSUMER = `/// <reference types="@svc/vite/virtual" />
import { createClient, type ClientSettings, type SvcOptions } from '@svc/runtime';
import { errorTitle, findSecretsInCode, flushWithin, knownSecrets } from '@svc/runtime/kit';
import { setupErrorHandler, type SvcExpressOptions } from '@svc/express';
import { svc } from '@svc/vite';
import { installGlobalHandlers } from '@svc/vite/client';
import { SvcErrorBoundary } from '@svc/vite/react';
import { installVueErrorHandler } from '@svc/vite/vue';
import { config, settings } from 'virtual:svc/config';
import { captureRequestError, registerSvc } from '@svc/next';
import { registerSvcClient, useSvcErrorReport } from '@svc/next/client';
import { withSvc } from '@svc/next/config';
import svcNuxt, { type ModuleOptions } from '@svc/nuxt';
import { startServer } from '@svc/server';
import { startTestService } from '@svc/server/testing';

const options: SvcOptions = { apiKey: 'svc_pub_x', environment: 'test' };
const where: ClientSettings = { serviceUrl: 'https://svc.example.com' };
const express: SvcExpressOptions = { ...options, serviceUrl: where.serviceUrl };
const nuxt: Partial<ModuleOptions> = { serviceUrl: 'https://svc.example.com' };
export const used = [
  createClient(options, where).major('t'),
  setupErrorHandler, express, svc({ sourceMaps: true }), installGlobalHandlers, SvcErrorBoundary,
  installVueErrorHandler, createClient(config, settings), captureRequestError, registerSvc,
  registerSvcClient, useSvcErrorReport, withSvc({}), svcNuxt, nuxt, startServer, startTestService,
  errorTitle(new Error('x'), 'GET /'), findSecretsInCode('', knownSecrets({})), flushWithin,
];
`;

const CONSUMER_CJS = `import { createClient } from '@svc/runtime';
import { errorTitle } from '@svc/runtime/kit';
import { setupErrorHandler } from '@svc/express';
import { registerSvc } from '@svc/next';
import { registerSvcClient } from '@svc/next/client';
import { withSvc } from '@svc/next/config';

export const used = [createClient({}, { serviceUrl: 'http://127.0.0.1:1' }), errorTitle, setupErrorHandler, registerSvc, registerSvcClient, withSvc];
`;

describe('the declaration files in a fresh app (tsc --noEmit, skipLibCheck: false)', () => {
  const tsconfig = (resolution: 'bundler' | 'node16', files: string[]) => ({
    compilerOptions: {
      target: 'es2022',
      lib: ['es2023', 'dom'],
      module: resolution === 'bundler' ? 'esnext' : 'node16',
      moduleResolution: resolution,
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      jsx: 'react-jsx',
      types: ['node'],
    },
    files,
  });

  /** Runs tsc on the consumer files; returns the errors located in our files, and the others. */
  async function check(resolution: 'bundler' | 'node16', files: string[]) {
    const config = `tsconfig.${resolution}.json`;
    writeFileSync(join(app, config), JSON.stringify(tsconfig(resolution, files), null, 2));
    const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc');
    const out = await run(process.execPath, [tsc, '-p', config], { cwd: app, maxBuffer: 1 << 24 })
      .then((r) => r.stdout)
      .catch((e: { stdout?: string }) => e.stdout ?? String(e));
    const errors = out.split('\n').filter((l) => /error TS\d+/.test(l));
    // Ours: the consumer files and everything under node_modules/@svc/. Errors that third-party
    // declarations raise with skipLibCheck off are not ours to fix (counted, not failed).
    const ours = errors.filter((l) => /^(consumer\.|node_modules\/@svc\/)/.test(l));
    console.log(
      `[pack] tsc ${resolution}: ${ours.length} errors in our files, ${errors.length - ours.length} in third-party declarations`,
    );
    return ours;
  }

  it('moduleResolution bundler, and node16 (ESM, and CJS for the dual packages): no error in our declaration files', async () => {
    writeFileSync(join(app, 'consumer.ts'), CONSUMER);
    writeFileSync(join(app, 'consumer.mts'), CONSUMER);
    writeFileSync(join(app, 'consumer.cts'), CONSUMER_CJS);
    // The two runs in parallel: each type-checks next's, vite's and vue's declarations too.
    const [bundler, node16] = await Promise.all([
      check('bundler', ['consumer.ts']),
      check('node16', ['consumer.mts', 'consumer.cts']),
    ]);
    expect({ bundler, node16 }).toEqual({ bundler: [], node16: [] });
  });
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
