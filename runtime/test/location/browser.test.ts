// Real Chromium, a real Vite build, the real reference service: which file and line a card gets.
import { rm } from 'node:fs/promises';
import { startTestService, type TestService } from '@svc/server/testing';
import { launchChromium } from '@svc/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'vite';
import {
  buildViteFixture,
  RUNTIME_BROWSER,
  type ServeMode,
  type StaticServer,
  serveStatic,
  type ViteFixture,
} from './browser-fixture.ts';

let fixture: ViteFixture;
let service: TestService;
let server: StaticServer;
let browser: Browser;
const lines = { throw: 0, call: 0 };

beforeAll(async () => {
  [fixture, service, browser] = await Promise.all([
    buildViteFixture(),
    startTestService(),
    launchChromium(),
  ]);
  server = await serveStatic({ root: fixture.outDirs.regular, maps: 'ok' });
  lines.throw = await fixture.line('src/checkout.ts', 'throw-site');
  lines.call = await fixture.line('src/report.ts', 'call-site');
}, 120_000);

afterAll(async () => {
  await Promise.all([browser?.close(), service?.close(), server?.close()]);
  if (fixture) await rm(fixture.dir, { recursive: true, force: true });
});

/** Loads the page under `mode`, reports one thrown error and one call site, returns both cards. */
async function scenario(
  mode: ServeMode | string,
  tag: string,
  maps: 'on' | 'off' | 'uploaded' = 'on',
) {
  if (typeof mode !== 'string') server.mode = mode;
  server.requests.length = 0;
  const base = typeof mode === 'string' ? mode : server.url;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.stack ?? e.message));
    const query = new URLSearchParams({ key: service.keys.apiKey, maps, service: service.url });
    await page.goto(`${base}/?${query}`);
    await page
      .waitForFunction(() => 'runScenario' in window, undefined, { timeout: 10_000 })
      .catch(() => {
        throw new Error(`page did not start: ${errors.join('\n') || 'no page error'}`);
      });
    const flushed = await page.evaluate(
      (t) => (window as unknown as { runScenario(t: string): Promise<unknown> }).runScenario(t),
      tag,
    );
    const cards = await service.cards();
    const pick = (title: string) => {
      const card = cards.find((c) => c.title === title);
      return card && { file_name: card.file_name, line_number: card.line_number };
    };
    return {
      flushed,
      description: cards.find((c) => c.title === `checkout failed ${tag}`)?.description,
      thrown: pick(`checkout failed ${tag}`),
      call: pick(`slow page ${tag}`),
      requests: server.requests.slice(),
    };
  } finally {
    await context.close();
  }
}

/** An unresolved chunk: its content hash is written `[hash]` (the same name in every build). */
const CHUNK = /^assets\/index-\[hash\]\.js$/;

describe('browser location capture (Chromium, Vite build)', () => {
  it('regular maps: the original src/ file and line of the throw site and the call site', async () => {
    const out = await scenario({ root: fixture.outDirs.regular, maps: 'ok' }, 'regular');
    expect(out.flushed).toMatchObject({ sent: 2, failed: 0 });
    expect(out.thrown).toEqual({ file_name: 'src/checkout.ts', line_number: lines.throw });
    expect(out.call).toEqual({ file_name: 'src/report.ts', line_number: lines.call });
  });

  it('description frames: original places and function names, no origin or chunk name', async () => {
    const out = await scenario({ root: fixture.outDirs.regular, maps: 'ok' }, 'frames');
    const text = out.description ?? '';
    expect(text).toMatch(
      /^Error: checkout frames failed\n {4}at checkout \(src\/checkout\.ts:\d+:\d+\)\n/,
    );
    expect(text).toContain(
      `\nCaused by: TypeError: cart frames is empty\n    at readCart (src/checkout.ts:${lines.throw}:`,
    );
    expect(text).not.toMatch(/127\.0\.0\.1|http:|assets\/index/);
  });

  it('sourceMaps off: description frames are chunk paths with the hash written [hash]', async () => {
    const out = await scenario({ root: fixture.outDirs.regular, maps: 'ok' }, 'frames-off', 'off');
    const text = out.description ?? '';
    expect(text).toMatch(/\n {4}at \S+ \(assets\/index-\[hash\]\.js:\d+:\d+\)\n/);
    expect(text).not.toMatch(/127\.0\.0\.1|http:|index-(?!\[hash\])/);
  });

  it('hidden maps found through the registry the Vite plugin writes', async () => {
    const out = await scenario(
      { root: fixture.outDirs.hidden, maps: 'ok', registry: true },
      'hidden-registry',
    );
    expect(out.requests.some((p) => p.startsWith('/maps/'))).toBe(true);
    expect(out.thrown).toEqual({ file_name: 'src/checkout.ts', line_number: lines.throw });
    expect(out.call).toEqual({ file_name: 'src/report.ts', line_number: lines.call });
  });

  it('hidden maps found through the SourceMap response header', async () => {
    const out = await scenario(
      { root: fixture.outDirs.hidden, maps: 'ok', header: true },
      'hidden-header',
    );
    expect(out.thrown).toEqual({ file_name: 'src/checkout.ts', line_number: lines.throw });
  });

  it('a map that 404s: the report still arrives, with the unresolved chunk location', async () => {
    const out = await scenario({ root: fixture.outDirs.regular, maps: '404' }, 'map-404');
    expect(out.flushed).toMatchObject({ sent: 2, failed: 0 });
    expect(out.thrown?.file_name).toMatch(CHUNK);
    expect(out.thrown?.line_number).toBeGreaterThanOrEqual(1);
    expect(out.call?.file_name).toMatch(CHUNK);
  });

  it('a map over the size cap: the report still arrives, unresolved', async () => {
    const out = await scenario({ root: fixture.outDirs.regular, maps: 'huge' }, 'map-huge');
    expect(out.flushed).toMatchObject({ sent: 2, failed: 0 });
    expect(out.thrown?.file_name).toMatch(CHUNK);
    expect(out.call?.file_name).toMatch(CHUNK);
  });

  it('a map server that stalls: the resolver times out and the report arrives unresolved', async () => {
    const out = await scenario({ root: fixture.outDirs.regular, maps: 'stall' }, 'map-stall');
    expect(out.flushed).toMatchObject({ sent: 2, failed: 0 });
    expect(out.thrown?.file_name).toMatch(CHUNK);
    expect(out.call?.file_name).toMatch(CHUNK);
  });

  it('hidden maps without registry or header stay unresolved', async () => {
    const out = await scenario({ root: fixture.outDirs.hidden, maps: 'ok' }, 'hidden-unknown');
    expect(out.thrown?.file_name).toMatch(CHUNK);
  });

  it('maps uploaded to the service: the exact chunk path (no [hash]), no map fetched', async () => {
    const out = await scenario(
      { root: fixture.outDirs.regular, maps: 'ok' },
      'uploaded',
      'uploaded',
    );
    expect(out.flushed).toMatchObject({ sent: 2, failed: 0 });
    const chunk = /^assets\/index-(?!\[hash\])[\w-]{8}\.js$/;
    expect(out.thrown?.file_name).toMatch(chunk);
    expect(out.call?.file_name).toMatch(chunk);
    // The frames keep the chunk's own path and position, which the service's map resolves.
    const text = out.description ?? '';
    expect(text).toMatch(/\n {4}at \S+ \(assets\/index-(?!\[hash\])[\w-]{8}\.js:\d+:\d+\)\n/);
    expect(text).not.toMatch(/127\.0\.0\.1|http:|\[hash\]|src\//);
    expect(out.requests.filter((p) => /browser-maps|\.map$/.test(p))).toEqual([]);
  });

  it('sourceMaps off: unresolved location and the resolver chunk is never loaded', async () => {
    const out = await scenario({ root: fixture.outDirs.regular, maps: 'ok' }, 'maps-off', 'off');
    expect(out.flushed).toMatchObject({ sent: 2 });
    expect(out.thrown?.file_name).toMatch(CHUNK);
    expect(out.requests.filter((p) => /browser-maps|\.map$/.test(p))).toEqual([]);
  });
});

describe('browser location capture (Chromium, Vite dev server)', () => {
  it('inline maps of transformed modules give the src/ line (types stripped shift lines)', async () => {
    const dev = await createServer({
      root: fixture.dir,
      configFile: false,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, strictPort: false },
      resolve: { alias: { '@svc/runtime': RUNTIME_BROWSER } },
    });
    try {
      await dev.listen();
      const url = (dev.resolvedUrls?.local[0] ?? '').replace(/\/$/, '');
      const out = await scenario(url, 'dev');
      expect(out.thrown).toEqual({ file_name: 'src/checkout.ts', line_number: lines.throw });
      expect(out.call).toEqual({ file_name: 'src/report.ts', line_number: lines.call });
      const unmapped = await scenario(url, 'dev-off', 'off');
      expect(unmapped.thrown?.file_name).toBe('src/checkout.ts'); // `?t=` and origin dropped
      expect(unmapped.thrown?.line_number).not.toBe(lines.throw); // served code is transformed
    } finally {
      await dev.close();
    }
  });
});
