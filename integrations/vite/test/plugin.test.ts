import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, createServer, type InlineConfig } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { svc, svcFor, type SvcViteOptions } from '../src/plugin.ts';

// Real `vite build` runs (in process) of a tiny app written to a temp dir.
const PUB = `svc_pub_${'0a'.repeat(24)}`;
const SECRET = `svc_sec_${'5e'.repeat(32)}`;
const KEY_ID = 'svck_1234abcd';
let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function app(main: string, env: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-vite-'));
  dirs.push(root);
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><head></head><body><script type="module" src="/main.js"></script></body></html>',
  );
  writeFileSync(join(root, 'main.js'), main);
  writeFileSync(
    join(root, '.env'),
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  );
  return root;
}

async function buildApp(root: string, options: SvcViteOptions = {}, extra: InlineConfig = {}) {
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [svc(options)],
    build: { minify: false, outDir: join(root, 'dist') },
    ...extra,
  });
  const assets = join(root, 'dist', 'assets');
  const files = readdirSync(assets);
  const read = (f: string) => readFileSync(join(assets, f), 'utf8');
  return {
    files,
    js: files
      .filter((f) => f.endsWith('.js'))
      .map(read)
      .join('\n'),
    html: readFileSync(join(root, 'dist', 'index.html'), 'utf8'),
  };
}

const USE_CONFIG = `import { config } from 'virtual:svc/config';\nwindow.svcConfig = config;\n`;

describe('svc() plugin, real vite build', () => {
  it('serves the client config: publishable key, release option, mode as environment', async () => {
    const root = app(USE_CONFIG, { VITE_SERVICE_API_KEY: PUB });
    const out = await buildApp(root, { release: 'r-42' });
    expect(out.js).toContain(PUB);
    expect(out.js).toMatch(/"?environment"?:\s*"production"/);
    expect(out.js).toMatch(/"?release"?:\s*"r-42"/);
    expect(out.js).toMatch(/"?sourceMaps"?:\s*false/);
    expect(out.files.some((f) => f.endsWith('.map'))).toBe(false);
    expect(out.html).not.toContain('svc.sourcemaps');
  });

  it('exports the service address from VITE_SERVICE_URL as settings, apart from the options', async () => {
    const root = app(
      `import { config, settings } from 'virtual:svc/config';\nwindow.svc = [config, settings];\n`,
      { VITE_SERVICE_API_KEY: PUB, VITE_SERVICE_URL: 'https://svc.example.com/' },
    );
    const out = await buildApp(root);
    expect(out.js).toMatch(/"?serviceUrl"?:\s*"https:\/\/svc\.example\.com\/"/);
    const other = await buildApp(app(USE_CONFIG, { VITE_SERVICE_API_KEY: PUB }), {
      serviceUrl: 'http://127.0.0.1:8787',
    });
    expect(other.js).not.toContain('127.0.0.1:8787'); // `config` alone never carries it
  });

  it('reads every public setting from its VITE_SERVICE_ variable; environment and release fall back to SERVICE_, keys never', async () => {
    const read = async (env: Record<string, string>) => {
      const out = await buildApp(
        app(`import { config } from 'virtual:svc/config';\nwindow.svc = config;\n`, env),
      );
      return out.js;
    };
    const js = await read({
      VITE_SERVICE_API_KEY: PUB,
      VITE_SERVICE_ENCRYPTION_PUBLIC_KEY: 'cHVibGljLWtleQ==',
      VITE_SERVICE_ENCRYPTION_KEY_ID: 'svcek_0a0b',
      VITE_SERVICE_ENVIRONMENT: 'staging',
      SERVICE_RELEASE: 'shop@3',
    });
    expect(js).toMatch(/"?encryptionPublicKey"?:\s*"cHVibGljLWtleQ=="/);
    expect(js).toMatch(/"?encryptionKeyId"?:\s*"svcek_0a0b"/);
    expect(js).toMatch(/"?environment"?:\s*"staging"/);
    expect(js).toMatch(/"?release"?:\s*"shop@3"/);
    const fallback = await read({ SERVICE_API_KEY: PUB, SERVICE_ENVIRONMENT: 'qa' });
    expect(fallback).toMatch(/"?environment"?:\s*"qa"/);
    expect(fallback).not.toContain(PUB);
  });

  it('with sourceMaps: hidden maps (no sourceMappingURL) and a registry in index.html', async () => {
    const root = app(USE_CONFIG, { VITE_SERVICE_API_KEY: PUB });
    const out = await buildApp(root, { sourceMaps: true });
    const chunk = out.files.find((f) => f.endsWith('.js'))!;
    expect(out.files).toContain(`${chunk}.map`);
    expect(out.js).not.toContain('sourceMappingURL');
    const map = JSON.parse(readFileSync(join(root, 'dist', 'assets', `${chunk}.map`), 'utf8'));
    expect(map.sources).toEqual(['../main.js']); // resolves to /main.js against the map URL
    expect(out.html).toContain("Symbol.for('svc.sourcemaps')");
    expect(out.html).toContain(JSON.stringify({ [`assets/${chunk}`]: `assets/${chunk}.map` }));
    // The registry is a classic script placed before the module script.
    expect(out.html.indexOf('svc.sourcemaps')).toBeLessThan(out.html.indexOf('type="module"'));
  });

  it('keeps an explicit build.sourcemap setting', async () => {
    const root = app(USE_CONFIG, { VITE_SERVICE_API_KEY: PUB });
    const out = await buildApp(root, { sourceMaps: true }, { build: { sourcemap: true } } as never);
    expect(out.js).toContain('sourceMappingURL');
  });

  it('fails when a svc_sec_ value would ship, without printing it', async () => {
    const root = app(`console.log(${JSON.stringify(SECRET)});`);
    const error = await buildApp(root).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain(
      '[svc] Build stopped: a signing secret (svc_sec_...) would be shipped in the client file assets/',
    );
    expect(String((error as Error).message)).not.toContain(SECRET.slice(8));
  });

  it('fails when the value of SERVICE_SIGNING_SECRET reaches a chunk via define; the public key id may ship', async () => {
    const root = app('console.log(__SIGNING__, __KEY__);', {
      SERVICE_SIGNING_SECRET: 'not-prefixed-secret-123',
      SERVICE_KEY_ID: KEY_ID,
    });
    const define = {
      __SIGNING__: JSON.stringify('not-prefixed-secret-123'),
      __KEY__: JSON.stringify(KEY_ID),
    };
    const error = await buildApp(root, {}, { define }).catch((e: Error) => e);
    expect(String((error as Error).message)).toContain(
      '[svc] Build stopped: the value of SERVICE_SIGNING_SECRET would be shipped',
    );
    const keyIdOnly = app('console.log(__KEY__);', { SERVICE_KEY_ID: KEY_ID });
    await expect(
      buildApp(keyIdOnly, {}, { define: { __KEY__: JSON.stringify(KEY_ID) } }),
    ).resolves.toBeDefined();
  });

  it('with sourceMaps, also fails for a secret only in dead code (the map would carry it)', async () => {
    const root = app(`if (false) console.log(${JSON.stringify(SECRET)});\nconsole.log(1);`);
    const error = await buildApp(root, { sourceMaps: true }).catch((e: Error) => e);
    expect(String((error as Error).message)).toMatch(
      /a signing secret \(svc_sec_\.\.\.\) would be shipped in the client file assets\/index-[\w-]+\.js\.map/,
    );
  });

  it('builds when the secret stays on the server side (unused in client code)', async () => {
    const root = app('console.log("hello");', { SERVICE_SIGNING_SECRET: SECRET });
    await expect(buildApp(root)).resolves.toBeDefined();
  });

  it('refuses a non-publishable VITE_SERVICE_API_KEY', async () => {
    const root = app(USE_CONFIG, { VITE_SERVICE_API_KEY: KEY_ID });
    const error = await buildApp(root).catch((e: Error) => e);
    expect(String((error as Error).message)).toContain(
      '[svc] VITE_SERVICE_API_KEY must be a publishable key (svc_pub_...)',
    );
  });

  it('serves the same module in dev (vite serve), with the dev mode as environment', async () => {
    const root = app(USE_CONFIG, { VITE_SERVICE_API_KEY: PUB });
    const server = await createServer({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [svc({ release: 'dev-1' })],
      server: { middlewareMode: true, ws: false },
    });
    try {
      const mod = await server.transformRequest('virtual:svc/config');
      expect(mod?.code).toContain(PUB);
      expect(mod?.code).toContain('"environment":"development"');
      expect(mod?.code).toContain('"release":"dev-1"');
    } finally {
      await server.close();
    }
  });
});

describe('svcFor(framework): the same plugin for SvelteKit and React Router', () => {
  it("reads the framework's public variables (SvelteKit: PUBLIC_), the address from SERVICE_URL", async () => {
    const main = `import { config, settings } from 'virtual:svc/config';\nwindow.svc = [config, settings];\n`;
    const root = app(main, {
      PUBLIC_SERVICE_API_KEY: PUB,
      VITE_SERVICE_API_KEY: 'svc_pub_not_this_one',
      SERVICE_URL: 'https://svc.example.com',
    });
    await build({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [svcFor('sveltekit')],
      build: { minify: false, outDir: join(root, 'dist') },
    });
    const assets = join(root, 'dist', 'assets');
    const js = readdirSync(assets)
      .map((f) => readFileSync(join(assets, f), 'utf8'))
      .join('\n');
    expect(js).toContain(PUB);
    expect(js).not.toContain('svc_pub_not_this_one');
    expect(js).toContain('https://svc.example.com');
  });

  it('has no transformIndexHtml outside Vite apps (SvelteKit 3 refuses a plugin with it)', () => {
    expect(svcFor('sveltekit').transformIndexHtml).toBeUndefined();
    expect(svcFor('react-router').transformIndexHtml).toBeUndefined();
    expect(svc().transformIndexHtml).toBeDefined();
  });
});
