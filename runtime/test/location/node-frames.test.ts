// Description frames on Node through on-disk maps, with stacks and map excerpts recorded from real
// `next build` outputs (Turbopack, and webpack with server maps; fixtures/next-build/README.md):
// the app's own frames come out as `at loadOrder (app/boom/[id]/page.tsx:12:9)`, Node internals as
// `node:...`, dependencies as `node_modules/...`, and two hosts (two app folders) or two builds (two
// chunk hashes) give byte-identical text.
import {
  cp,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { describeNode } from '../../src/location/node-frames.ts';
import { clearMapCache } from '../../src/location/node-maps.ts';
import { setProjectRoot } from '../../src/location/node-paths.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures/next-build');
const ON = { captureLocation: true, lineNumbers: false, sourceMaps: true };
const dirs: string[] = [];

type Bundler = 'turbopack' | 'webpack';
type Stacks = Record<Bundler, Record<'page' | 'route', string>>;
const stacks: Stacks = JSON.parse(await readFile(join(FIXTURES, 'stacks.json'), 'utf8'));

/** A copy of one bundler's build output under a fresh app folder, as a host would have it. */
async function host(bundler: Bundler, nested: string) {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'svc-frames-')));
  dirs.push(base);
  const app = join(base, nested);
  // Kept as `next/` in the repository (`.next` folders are git-ignored).
  await cp(join(FIXTURES, bundler, 'next'), join(app, '.next'), { recursive: true });
  return app;
}

/** An Error as the app at `app` threw it (the recorded stack, under that folder). */
function thrown(app: string, stack: string): Error {
  const error = new Error(stack.split('\n')[0]!.replace(/^\w+: /, ''));
  error.name = stack.split(':')[0]!;
  error.stack = stack.replaceAll('<app>', app);
  return error;
}

async function describeIn(app: string, error: unknown) {
  setProjectRoot(app);
  return describeNode(error, ON);
}

beforeEach(() => clearMapCache());
afterAll(async () => {
  setProjectRoot(undefined);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const INTERNALS = [
  '    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
  '    at runNextTicks (node:internal/process/task_queues:64:3)',
  '    at listOnTimeout (node:internal/timers:545:9)',
  '    at process.processTimers (node:internal/timers:519:7)',
];

describe.each(['turbopack', 'webpack'] as const)(
  'a Next server component error (%s)',
  (bundler) => {
    it('frames are original, project-relative places with original function names', async () => {
      const app = await host(bundler, 'srv/app');
      const text = await describeIn(app, thrown(app, stacks[bundler].page));
      expect(text).toBe(
        [
          'Error: Order 42 not found',
          '    at loadOrder (app/boom/[id]/page.tsx:12:9)',
          ...INTERNALS,
          '    at async BoomPage (app/boom/[id]/page.tsx:6:17)',
        ].join('\n'),
      );
    });

    it('a route handler error: dependency frames under node_modules/', async () => {
      const app = await host(bundler, 'srv/app');
      const text = await describeIn(app, thrown(app, stacks[bundler].route));
      const runtime =
        bundler === 'turbopack' ? 'app-route-turbo.runtime.prod.js' : 'app-route.runtime.prod.js';
      expect(text).toBe(
        [
          'TypeError: route exploded',
          '    at app/api/boom/route.ts:8:9',
          '    at GET (app/api/boom/route.ts:9:1)',
          '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
          `    at async r0.renderToResponse (node_modules/next/dist/compiled/next-server/${runtime}:5:14399)`,
          `    at async r0.executeRequest (node_modules/next/dist/compiled/next-server/${runtime}:5:17556)`,
        ].join('\n'),
      );
    });

    it('two hosts (other app folders) give byte-identical text', async () => {
      const a = await host(bundler, 'home/deploy/shop');
      const b = await host(bundler, 'var/www/releases/2024-06-01/app');
      const first = await describeIn(a, thrown(a, stacks[bundler].page));
      clearMapCache();
      const second = await describeIn(b, thrown(b, stacks[bundler].page));
      expect(second).toBe(first);
      expect(first).not.toMatch(/home|var\/www|\.next|webpack:|file:|\[project\]/);
    });
  },
);

it('two Turbopack builds (another chunk hash for the same code) give byte-identical text', async () => {
  const a = await host('turbopack', 'a/app');
  const b = await host('turbopack', 'b/app');
  const dir = join(b, '.next/server/chunks/ssr');
  const chunk = join(dir, '_1pztwhm_cn3uu._.js');
  const renamed = join(dir, '_0qx7c4n2b9kzt._.js');
  await rename(`${chunk}.map`, `${renamed}.map`);
  const code = await readFile(chunk, 'utf8');
  await writeFile(renamed, code.replace('_1pztwhm_cn3uu._.js.map', '_0qx7c4n2b9kzt._.js.map'));
  await rm(chunk);
  const first = await describeIn(a, thrown(a, stacks.turbopack.page));
  clearMapCache();
  const stack = stacks.turbopack.page.replaceAll('_1pztwhm_cn3uu', '_0qx7c4n2b9kzt');
  const second = await describeIn(b, thrown(b, stack));
  expect(second).toBe(first);
});

it('without maps, generated chunks keep their place with the content hash written [hash]', async () => {
  const a = await host('turbopack', 'srv/app');
  setProjectRoot(a);
  const text = await describeNode(thrown(a, stacks.turbopack.page), { ...ON, sourceMaps: false });
  expect(text).toContain('    at e (.next/server/chunks/ssr/_[hash]._.js:1:241)');
  expect(text).toContain('    at async d (.next/server/chunks/ssr/_[hash]._.js:1:143)');
  expect(text).not.toContain(a);
});

it('is synchronous once the maps are read, and a title is the plain text', async () => {
  const app = await host('turbopack', 'srv/app');
  const error = thrown(app, stacks.turbopack.page);
  setProjectRoot(app);
  const first = describeNode(error, ON);
  expect(first).toBeInstanceOf(Promise);
  const again = describeNode(error, ON);
  expect(again).toBeInstanceOf(Promise); // still reading: waits for the same reads
  expect(await again).toBe(await first);
  expect(describeNode(error, ON)).toBe(await first);
  expect(describeNode(error)).toBe(error.stack);
});

describe("Next's own frames, through the maps Next ships in its package", () => {
  /** The build output, and `node_modules/next` of the repository (the same 16.4.5) beside it. */
  async function hostWithNext(bundler: Bundler) {
    const app = await host(bundler, 'srv/app');
    const next = dirname(createRequire(import.meta.url).resolve('next/package.json'));
    await mkdir(join(app, 'node_modules'), { recursive: true });
    await symlink(next, join(app, 'node_modules/next'), 'dir');
    return app;
  }

  it.each(['turbopack', 'webpack'] as const)(
    'read as node_modules/next/src/..., never as the app own src/ (%s)',
    async (bundler) => {
      const app = await hostWithNext(bundler);
      const text = String(await describeIn(app, thrown(app, stacks[bundler].route)));
      const next = text
        .split('\n')
        .filter((line) => line.includes('renderToResponse') || line.includes('executeRequest'));
      expect(next).toHaveLength(2);
      for (const line of next)
        expect(line).toMatch(
          /^ {4}at async \S+ \(node_modules\/next\/src\/server\/route-modules\/app-route\/module\.ts:\d+:\d+\)$/,
        );
      // The app's own frames are unchanged.
      expect(text).toContain('    at GET (app/api/boom/route.ts:9:1)');
    },
  );
});

it('with the build maps uploaded (uploadedSourceMaps), a frame no map resolves keeps its exact chunk path', async () => {
  const a = await host('turbopack', 'srv/app');
  setProjectRoot(a);
  const options = { ...ON, sourceMaps: false, uploadedSourceMaps: true };
  const text = await describeNode(thrown(a, stacks.turbopack.page), options);
  expect(text).toContain('    at e (.next/server/chunks/ssr/_1pztwhm_cn3uu._.js:1:241)');
  // Maps on disk still win: the Node side maps what it can read itself.
  clearMapCache();
  const mapped = await describeNode(thrown(a, stacks.turbopack.page), {
    ...ON,
    uploadedSourceMaps: true,
  });
  expect(mapped).toContain('    at loadOrder (app/boom/[id]/page.tsx:12:9)');
});

it("a place a map leaves in a build's own output (Vite's SSR chunk under .nuxt/) is hashed like an unmapped one", async () => {
  const app = await realpath(await mkdtemp(join(tmpdir(), 'svc-frames-')));
  dirs.push(app);
  const chunk = join(app, '.output/server/chunks/build/_id_-hh8O49BE.mjs');
  await mkdir(dirname(chunk), { recursive: true });
  await writeFile(chunk, 'function wrapper() {}\n//# sourceMappingURL=_id_-hh8O49BE.mjs.map\n');
  await writeFile(
    `${chunk}.map`,
    JSON.stringify({
      version: 3,
      sources: ['../../../../.nuxt/dist/server/_nuxt/_id_-D4r6thgT.js'],
      names: [],
      mappings: 'AAAA',
    }),
  );
  const error = new Error('Order 7 failed to render');
  error.stack = `Error: Order 7 failed to render\n    at wrapper (${chunk}:1:1)`;
  setProjectRoot(app);
  expect(await describeNode(error, ON)).toBe(
    'Error: Order 7 failed to render\n    at wrapper (.nuxt/dist/server/_nuxt/_id_-[hash].js:1:1)',
  );
});
