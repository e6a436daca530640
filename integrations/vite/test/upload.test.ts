// `svc({ sourceMaps: 'upload' })` in real `vite build` runs (in process): hidden maps with debug
// IDs, the build's release set as the client's, the maps uploaded to the reference service and
// none left in `dist/`, and a build that still succeeds, saying why, without credentials or
// without a reachable service.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createClient } from '@svc/runtime';
import { startTestService } from '@svc/server/testing';
import { freePort, listSourceMaps } from '@svc/testkit';
import { build, createLogger } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { svc, type SvcViteOptions } from '../src/plugin.ts';

const PUB = `svc_pub_${'0a'.repeat(24)}`;
let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

const SOURCES: Record<string, string> = {
  'index.html':
    '<!doctype html><html><head></head><body><script type="module" src="/src/main.ts"></script></body></html>',
  'src/main.ts': `import { config, settings } from 'virtual:svc/config';
import { checkOut } from './cart.ts';
(window as any).svc = [config, settings];
document.body.addEventListener('click', () => checkOut([]));
void import('./lazy.ts').then((m) => m.warm());
`,
  'src/cart.ts': `export function checkOut(items: string[]): void {
  if (items.length === 0) throw new TypeError('Cart is empty');
}
`,
  'src/lazy.ts': 'export const warm = () => 42;\n',
};

function app(env: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-vite-upload-'));
  dirs.push(root);
  const files = { ...SOURCES, '.env': `VITE_SERVICE_API_KEY=${PUB}\n` };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  for (const [k, v] of Object.entries(env))
    writeFileSync(join(root, '.env'), `${k}=${v}\n`, { flag: 'a' });
  return root;
}

/** `vite build` with the plugin; what Vite's logger printed, and the files of dist/assets. */
async function buildApp(root: string, options: SvcViteOptions) {
  const lines: string[] = [];
  const logger = createLogger('info', { allowClearScreen: false });
  logger.info = (msg) => {
    lines.push(msg);
  };
  await build({
    root,
    configFile: false,
    customLogger: logger,
    plugins: [svc(options)],
    build: { outDir: join(root, 'dist') },
  });
  const assets = join(root, 'dist', 'assets');
  const files = readdirSync(assets).sort();
  const js = files
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(assets, f), 'utf8'));
  return { lines: lines.filter((l) => l.includes('[svc]')), files, js: js.join('\n') };
}

describe("svc({ sourceMaps: 'upload' })", () => {
  it('uploads every chunk map to the reference service for the build release, none left in dist', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-vite-service-'));
    dirs.push(dataDir);
    const service = await startTestService({ dataDir });
    try {
      const root = app({
        SERVICE_URL: service.url,
        SERVICE_KEY_ID: service.keys.keyId,
        SERVICE_SIGNING_SECRET: service.keys.signingSecret,
        SERVICE_RELEASE: 'shop@2',
      });
      const out = await buildApp(root, { sourceMaps: 'upload' });
      const chunks = out.files.filter((f) => f.endsWith('.js'));
      expect(out.lines).toEqual([`[svc] uploaded ${chunks.length} source maps for release shop@2`]);
      expect(out.files.filter((f) => f.endsWith('.map'))).toEqual([]);
      const stored = await listSourceMaps(dataDir, service.projectId);
      expect(stored.map((m) => [m.release, m.path]).sort()).toEqual(
        chunks.map((c) => ['shop@2', `assets/${c}`]).sort(),
      );
      // Rolldown's debug IDs are stored with the maps.
      expect(stored.every((m) => /^[0-9a-f-]{36}$/.test(m.debug_id ?? ''))).toBe(true);
      // A frame of the deployed chunk, as a browser of this build reports it, reads as the source.
      const chunk = chunks.find((c) => c.startsWith('index-'))!;
      const lines = readFileSync(join(root, 'dist/assets', chunk), 'utf8').split('\n');
      const line = lines.findIndex((l) => l.includes('Cart is empty')) + 1;
      const column = lines[line - 1]!.indexOf('throw') + 1;
      const client = createClient(
        { apiKey: service.keys.apiKey, release: 'shop@2', captureLocation: false },
        { serviceUrl: service.url },
      );
      client.major(
        'Cart is empty',
        `TypeError: Cart is empty\n    at n (assets/${chunk}:${line}:${column})`,
      );
      await client.flush();
      const [card] = await service.cards();
      expect(card!.description).toMatch(/^ {4}at checkOut \(src\/cart\.ts:2:\d+\)$/m);
    } finally {
      await service.close();
    }
  });

  it('without credentials: builds, says so in one line, ships debug IDs and no map', async () => {
    const root = app();
    const out = await buildApp(root, { sourceMaps: 'upload' });
    expect(out.lines).toEqual([
      '[svc] no source maps uploaded because no credentials (SERVICE_URL, SERVICE_KEY_ID, SERVICE_SIGNING_SECRET not set)',
    ]);
    expect(out.files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(out.js).not.toContain('sourceMappingURL');
    expect(out.js).toMatch(/\/\/# debugId=[0-9a-f-]{36}/);
    // The client reports with the build's own release and sends frames for the service to map.
    expect(out.js).toMatch(/"?release"?:\s*["`]build-\d{8}T\d{6}Z-[0-9a-z]{6}["`]/);
    expect(out.js).toMatch(/[{,]"?sourceMaps"?:\s*(?:false|!1)/);
    expect(out.js).toMatch(/"?uploadedSourceMaps"?:\s*(?:true|!0)/);
    // No registry: there is no map to fetch.
    expect(readFileSync(join(root, 'dist/index.html'), 'utf8')).not.toContain('svc.sourcemaps');
  });

  it("keeps the user's release: the option, else VITE_SERVICE_RELEASE or SERVICE_RELEASE", async () => {
    const out = await buildApp(app({ SERVICE_RELEASE: 'shop@7' }), { sourceMaps: 'upload' });
    expect(out.js).toMatch(/"?release"?:\s*["`]shop@7["`]/);
    const explicit = await buildApp(app({ SERVICE_RELEASE: 'shop@7' }), {
      sourceMaps: 'upload',
      release: 'shop@8',
    });
    expect(explicit.js).toMatch(/"?release"?:\s*["`]shop@8["`]/);
  });

  it('a service that cannot be reached: builds, one line with its address, no map left', async () => {
    const port = await freePort();
    const root = app({
      SERVICE_URL: `http://127.0.0.1:${port}`,
      SERVICE_KEY_ID: 'svck_1234abcd',
      SERVICE_SIGNING_SECRET: `svc_sec_${'5e'.repeat(32)}`,
    });
    const out = await buildApp(root, { sourceMaps: 'upload' });
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatch(
      new RegExp(
        `^\\[svc\\] no source maps uploaded because service unreachable at http://127\\.0\\.0\\.1:${port} `,
      ),
    );
    expect(out.files.filter((f) => f.endsWith('.map'))).toEqual([]);
  });
});
