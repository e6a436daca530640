// The browser resolver's discovery order, caps and cache, against a real HTTP server. It only needs
// `fetch`, so it runs in Node here; the Chromium suite (browser.test.ts) runs it inside a page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearMapCache, MAP_MAX_BYTES, resolveFrames } from '../../src/location/browser-maps.ts';

/** One map per place, each pointing at a different source, so the test sees which one was used. */
const map = (source: string) =>
  JSON.stringify({ version: 3, sources: [source], names: [], mappings: 'AAAA' });

type Route = { status?: number; body?: string | Buffer; headers?: Record<string, string> };
let routes: Record<string, Route> = {};
const hits: string[] = [];
let server: Server;
let origin = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    const route = routes[path];
    if (!route) return void res.writeHead(404).end();
    res.writeHead(route.status ?? 200, route.headers).end(route.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  clearMapCache();
  hits.length = 0;
  routes = {};
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('svc.sourcemaps')];
});

const frame = (path = '/assets/app.js') => ({ file: `${origin}${path}`, line: 1, column: 1 });

describe('resolveFrames discovery order', () => {
  it('1. the sourceMappingURL comment wins', async () => {
    routes = {
      '/assets/app.js': {
        body: 'x()\n//# sourceMappingURL=maps/app.js.map',
        headers: { SourceMap: '/header.map' },
      },
      '/assets/maps/app.js.map': { body: map('../../src/from-comment.ts') },
      '/header.map': { body: map('src/from-header.ts') },
    };
    expect((await resolveFrames([frame()]))?.file).toBe(`${origin}/src/from-comment.ts`);
  });

  it('2. then the SourceMap header', async () => {
    routes = {
      '/assets/app.js': { body: 'x()', headers: { SourceMap: '/header.map' } },
      '/header.map': { body: map('src/from-header.ts') },
      '/assets/app.js.map': { body: map('../src/from-suffix.ts') },
    };
    expect((await resolveFrames([frame()]))?.file).toBe(`${origin}/src/from-header.ts`);
  });

  it('3. then <chunk URL>.map (query and hash dropped)', async () => {
    routes = {
      '/assets/app.js?v=2': { body: 'x()' },
      '/assets/app.js.map': { body: map('../src/from-suffix.ts') },
    };
    const found = await resolveFrames([frame('/assets/app.js?v=2')]);
    expect(found).toEqual({ file: `${origin}/src/from-suffix.ts`, line: 1, column: 1 });
  });

  it('4. then the registry; sources resolve as if the map sat next to the chunk', async () => {
    (globalThis as Record<symbol, unknown>)[Symbol.for('svc.sourcemaps')] = {
      '/assets/app.js': '/private/maps/app.js.map',
    };
    routes = {
      '/assets/app.js': { body: 'x()' },
      '/private/maps/app.js.map': { body: map('../src/from-registry.ts') },
    };
    expect((await resolveFrames([frame()]))?.file).toBe(`${origin}/src/from-registry.ts`);
  });

  it('an inline data: map (Vite dev): sources relative to the chunk, query dropped later', async () => {
    const inline = Buffer.from(map('a.ts?t=1')).toString('base64');
    routes = {
      '/src/a.ts?t=1': { body: `x()\n//# sourceMappingURL=data:application/json;base64,${inline}` },
    };
    expect((await resolveFrames([frame('/src/a.ts?t=1')]))?.file).toBe(`${origin}/src/a.ts?t=1`);
  });

  it('skips frames whose original source is the SDK', async () => {
    routes = {
      '/assets/app.js': { body: 'x()' },
      '/assets/app.js.map': {
        body: JSON.stringify({
          version: 3,
          sources: ['../node_modules/@svc/runtime/dist/index.browser.mjs', '../src/user.ts'],
          names: [],
          mappings: 'AAAA;ACAA',
        }),
      },
    };
    const found = await resolveFrames([frame(), { ...frame(), line: 2 }]);
    expect(found?.file).toBe(`${origin}/src/user.ts`);
  });
});

describe('resolveFrames failures', () => {
  it('returns the frame unresolved when no map exists, and fetches each place once', async () => {
    routes = { '/assets/app.js': { body: 'x()' } };
    expect(await resolveFrames([frame()])).toEqual(frame());
    const first = hits.length;
    await resolveFrames([frame()]);
    expect(hits.length).toBe(first); // cached miss
  });

  it('ignores a map over the size cap (declared by Content-Length)', async () => {
    routes = {
      '/assets/app.js': { body: 'x()' },
      '/assets/app.js.map': { body: Buffer.alloc(MAP_MAX_BYTES + 1, 0x20) },
    };
    expect(await resolveFrames([frame()])).toEqual(frame());
  });

  it('ignores a body that is not a map and non-http frames', async () => {
    routes = {
      '/assets/app.js': { body: 'x()' },
      '/assets/app.js.map': { body: '<html>login</html>' },
    };
    expect(await resolveFrames([frame()])).toEqual(frame());
    const local = { file: 'file:///app.js', line: 1, column: 1 };
    expect(await resolveFrames([local])).toEqual(local);
  });
});
