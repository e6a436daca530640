// Browser build in real Chromium (see testkit's findChromium): a page loads the bundled browser build, reports, and
// leaves; pagehide / visibilitychange send the queue with fetch keepalive within the 64 KiB budget.
// The pagehide case uses the default service address (no serviceUrl): Chromium resolves the
// generated host to a local HTTPS recording server (self-signed certificate made with openssl,
// accepted with --ignore-certificate-errors); the other cases pass `serviceUrl`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  CHROMIUM_ARGS,
  chromiumPath,
  offlineQueueOpened,
  watchOfflineQueue,
} from '../../../testkit/src/index.ts';
import { SERVICE_URL } from '../../src/index.browser.ts';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.ts';
import { selfSignedCert } from '../helpers/tls.ts';

let server: RecordingServer;
let tlsServer: RecordingServer;
let site: Server;
let siteUrl: string;
let browser: Browser;

const PAGE = `<!doctype html><meta charset="utf-8"><title>svc</title><script src="/app.js"></script>`;

beforeAll(async () => {
  server = await startRecordingServer();
  const host = new URL(SERVICE_URL).hostname;
  tlsServer = await startRecordingServer(undefined, selfSignedCert(host));
  // The published browser build, resolved through the package's `browser` export condition.
  const out = await build({
    stdin: {
      contents: `export { createClient } from '@svc/runtime';`,
      resolveDir: process.cwd(),
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    globalName: 'Svc',
    platform: 'browser',
    write: false,
  });
  const app = out.outputFiles[0].text;
  expect(app).not.toMatch(/from\s*["']node:|require\(["']node:/);
  site = createServer((req, res) => {
    if (req.url === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(app);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      ...CHROMIUM_ARGS,
      `--host-resolver-rules=MAP ${host}:443 127.0.0.1:${tlsServer.port}`,
      '--ignore-certificate-errors',
    ],
  });
});
beforeEach(() => {
  server.requests.length = 0;
  tlsServer.requests.length = 0;
});
afterAll(async () => {
  await browser?.close();
  site?.close();
  await server?.close();
  await tlsServer?.close();
});

async function openPage() {
  const page = await browser.newPage();
  await page.goto(siteUrl);
  return page;
}

const waitFor = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not met in ${ms} ms: ${check}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

it('sends queued reports with keepalive on pagehide', async () => {
  const page = await openPage();
  await page.evaluate(async () => {
    const w = window as unknown as { Svc: typeof import('../../src/index.browser.ts') };
    const client = w.Svc.createClient({
      apiKey: 'svc_pub_browser',
      flushIntervalMs: 600_000,
      captureLocation: false,
    });
    for (let i = 0; i < 3; i++) client.major(`unload ${i}`, 'from the page');
    await new Promise((r) => setTimeout(r, 50)); // bodies get prepared right after the calls
  });
  expect(tlsServer.requests).toHaveLength(0); // 10-minute cadence: nothing sent yet
  await page.goto('about:blank');
  await waitFor(() => tlsServer.requests.length >= 3);
  expect(tlsServer.requests.map((r) => r.json?.title).sort()).toEqual([
    'unload 0',
    'unload 1',
    'unload 2',
  ]);
  expect(tlsServer.requests[0].headers.authorization).toBe('Bearer svc_pub_browser');
  await page.close();
});

it('keeps within the 64 KiB keepalive budget on visibilitychange to hidden', async () => {
  const page = await openPage();
  const keepalive = await page.evaluate(async (serviceUrl) => {
    // Records which requests the SDK flagged keepalive, and their body sizes.
    const flagged: number[] = [];
    const original = window.fetch;
    window.fetch = (input, init) => {
      if (init?.keepalive) flagged.push(new Blob([init.body as string]).size);
      return original(input, init);
    };
    const w = window as unknown as { Svc: typeof import('../../src/index.browser.ts') };
    const client = w.Svc.createClient(
      { apiKey: 'svc_pub_browser', flushIntervalMs: 600_000, captureLocation: false },
      { serviceUrl },
    );
    // ~25 KB each: two fit in 64 KiB; the other two are sent by the normal drain (the page lives on).
    for (let i = 0; i < 4; i++) client.minor(`big ${i}`, String(i).repeat(25_000));
    await new Promise((r) => setTimeout(r, 50));
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    return flagged;
  }, server.url);
  expect(keepalive).toHaveLength(2);
  expect(keepalive.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(64 * 1024);
  await waitFor(() => server.requests.length >= 4);
  expect(server.requests.map((r) => r.json?.title).sort()).toEqual([
    'big 0',
    'big 1',
    'big 2',
    'big 3',
  ]);
  await page.close();
});

it('prepares a plain bearer report queued in the same task as the unload event', async () => {
  const page = await openPage();
  const keepalive = await page.evaluate((serviceUrl) => {
    const flagged: string[] = [];
    const original = window.fetch;
    window.fetch = (input, init) => {
      if (init?.keepalive) flagged.push(String(init.body));
      return original(input, init);
    };
    const w = window as unknown as { Svc: typeof import('../../src/index.browser.ts') };
    const client = w.Svc.createClient(
      { apiKey: 'svc_pub_browser', flushIntervalMs: 600_000, captureLocation: false },
      { serviceUrl },
    );
    client.criticalHigh('last words');
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    return flagged;
  }, server.url);
  expect(keepalive).toHaveLength(1);
  expect(JSON.parse(keepalive[0]).title).toBe('last words');
  await waitFor(() => server.requests.length >= 1);
  expect(server.requests[0].json?.title).toBe('last words');
  await page.close();
});

it('past the 64 KiB keepalive budget when the page goes: the rest kept, sent once by the next page', async () => {
  const page = await openPage();
  // Each page's client, made as the app's start-up makes it (the offline queue loads 1 s later).
  await page.addInitScript((serviceUrl) => {
    addEventListener('DOMContentLoaded', () => {
      const w = window as unknown as { Svc: typeof import('../../src/index.browser.ts') };
      (window as unknown as { svc: unknown }).svc = w.Svc.createClient(
        { apiKey: 'svc_pub_browser', flushIntervalMs: 600_000, captureLocation: false },
        { serviceUrl },
      );
    });
  }, server.url);
  await watchOfflineQueue(page);
  await page.reload();
  await page.evaluate(async () => {
    // Records the keepalive bodies' sizes where the tab's next page reads them.
    const original = window.fetch;
    window.fetch = (input, init) => {
      if (init?.keepalive) {
        const sizes = JSON.parse(sessionStorage.getItem('keepalive') ?? '[]');
        sizes.push(new Blob([init.body as string]).size);
        sessionStorage.setItem('keepalive', JSON.stringify(sizes));
      }
      return original(input, init);
    };
    const svc = (window as unknown as { svc: import('../../src/index.browser.ts').SvcClient }).svc;
    // ~20 KB each: three fit in 64 KiB.
    for (let i = 0; i < 6; i++) svc.minor(`past ${i}`, String(i).repeat(20_000));
  });
  await offlineQueueOpened(page); // from here a report kept at unload is written at once
  await page.reload(); // the next page's client sends what was kept
  const sizes: number[] = await page.evaluate(() =>
    JSON.parse(sessionStorage.getItem('keepalive') ?? '[]'),
  );
  expect(sizes).toHaveLength(3);
  expect(sizes.reduce((a, b) => a + b)).toBeLessThanOrEqual(64 * 1024);
  await waitFor(() => server.requests.length >= 6, 20_000);
  await new Promise((r) => setTimeout(r, 1000)); // nothing sent twice
  expect(server.requests.map((r) => r.json?.title).sort()).toEqual(
    [0, 1, 2, 3, 4, 5].map((i) => `past ${i}`),
  );
  await page.close();
});
