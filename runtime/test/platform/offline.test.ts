// The browser's offline queue (src/platform/offline.ts) in real Chromium, against the reference
// service: the published browser build, bundled by esbuild with splitting and served over HTTP, so
// its lazy chunks are fetched as a user's page fetches them. The network is cut with CDP
// (`Network.emulateNetworkConditions`, offline) or the service is stopped (refused). Reports made
// meanwhile are kept in IndexedDB and arrive exactly once when the page is back online, after the
// next page load, from one of two tabs loaded at once; the queue keeps the newest 30. A report
// still queued when the page goes, the service known down, is kept by the unload itself.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from '@svc/server/testing';
import { build } from 'esbuild';
import {
  type Browser,
  type BrowserContext,
  type CDPSession,
  chromium,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CHROMIUM_ARGS,
  chromiumPath,
  keptOffline,
  offlineQueueOpened,
  watchOfflineQueue,
} from '../../../testkit/src/index.ts';

let site: Server;
let browser: Browser;
let service: TestService;
let dataDir: string;
const chunks = new Map<string, string>();
/** The chunks the pages fetched (by file name), in order. */
const fetched: string[] = [];

/** The page's app: one shared client, reports made through `window.report(title, n, flush?)`. */
const APP = `import { initShared } from '@svc/runtime';
const params = new URLSearchParams(location.search);
const svc = initShared(
  {
    apiKey: params.get('key'),
    timeoutMs: 1000,
    maxRetries: 1,
    flushIntervalMs: Number(params.get('interval') ?? 200),
  },
  { serviceUrl: params.get('service') },
);
window.report = (title, count, flush) => {
  for (let i = 0; i < count; i++) svc.major(title, title + ': report ' + i, ['offline']);
  if (flush) svc.flush();
};
window.ready = true;
`;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-offline-'));
  service = await startTestService({ dataDir });
  const out = await build({
    stdin: { contents: APP, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: '/app',
    entryNames: 'app',
    write: false,
  });
  for (const file of out.outputFiles) chunks.set(file.path.slice('/app/'.length), file.text);
  site = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const name = path.startsWith('/app/') ? path.slice('/app/'.length) : undefined;
    if (name && chunks.has(name)) {
      fetched.push(name);
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(chunks.get(name));
    } else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<!doctype html><meta charset="utf-8"><script type="module" src="/app/app.js"></script>',
        );
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  site?.close();
  await service?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The app's page; `interval`: its `flushIntervalMs`. */
const pageUrl = (interval = 200) =>
  `http://127.0.0.1:${(site.address() as AddressInfo).port}/?interval=${interval}&key=${service.keys.apiKey}&service=${encodeURIComponent(service.url)}`;

/** Loads the app in `context` and waits until its offline queue is loaded (a second after start). */
async function openApp(context: BrowserContext, page?: Page, interval?: number): Promise<Page> {
  const tab = page ?? (await context.newPage());
  if (!page) await watchOfflineQueue(tab);
  const before = fetched.filter((f) => f.startsWith('offline')).length;
  await tab.goto(pageUrl(interval));
  await tab.waitForFunction(() => (window as { ready?: boolean }).ready === true);
  await until(() => fetched.filter((f) => f.startsWith('offline')).length > before);
  // Loaded once it has opened its database (after the transport and the warnings' chunks): the
  // network may go from here.
  await offlineQueueOpened(tab);
  return tab;
}

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`condition not met in ${ms} ms: ${check}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sessions = new WeakMap<Page, CDPSession>();

/** Cuts (or restores) the page's network, as DevTools' "Offline" does (one session per page). */
async function setOffline(context: BrowserContext, page: Page, offline: boolean): Promise<void> {
  let cdp = sessions.get(page);
  if (!cdp) {
    cdp = await context.newCDPSession(page);
    sessions.set(page, cdp);
    await cdp.send('Network.enable');
  }
  await cdp.send('Network.emulateNetworkConditions', {
    offline,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
}

/** The page's `window.report` (see APP). */
interface Reporting {
  report(title: string, count: number, flush?: boolean): void;
}

async function occurrences(title: string): Promise<number> {
  const cards = await service.cards();
  return cards.find((c) => c.title === title)?.occurrence_count ?? 0;
}

/** The card's count reaches `count`, and stays there a while (nothing is sent twice). */
async function exactly(title: string, count: number): Promise<void> {
  await until(async () => (await occurrences(title)) >= count);
  await new Promise((r) => setTimeout(r, 2500));
  expect(await occurrences(title)).toBe(count);
}

it('network cut: 10 errors offline, reload, online: exactly 10 occurrences', async () => {
  const context = await browser.newContext();
  // Nothing is sent before the reload: the 10 reports are still queued when the page goes.
  const page = await openApp(context, undefined, 60_000);
  await setOffline(context, page, true);
  await page.evaluate(() =>
    (window as unknown as { report: (t: string, n: number) => void }).report('Offline reload', 10),
  );
  // Reloaded while offline (the reports are still queued: unload keeps them), then online again.
  await page.reload().catch(() => undefined); // the reload itself fails: no network
  await setOffline(context, page, false);
  await openApp(context, page);
  await exactly('Offline reload', 10);
  expect(await keptOffline(page)).toBe(0);
  await context.close();
});

it('the service known down at the page end: the report is kept, sent once by the next page', async () => {
  const context = await browser.newContext();
  const page = await openApp(context, undefined, 60_000); // sent only by flush() and the unload
  const port = Number(new URL(service.url).port);
  await service.close(); // refused from now on
  try {
    // A first report meets the refusal while the page is open: kept, and the service known down.
    await page.evaluate(() => (window as unknown as Reporting).report('Kept at the end', 1, true));
    await until(async () => (await keptOffline(page)) === 1);
    // A second one is still queued when the page goes: kept by the unload itself, its write
    // committed before the page is torn down.
    await page.evaluate(() => (window as unknown as Reporting).report('Kept at the end', 1));
    await page.reload();
    await until(async () => (await keptOffline(page)) === 2);
  } finally {
    service = await startTestService({ dataDir, port });
  }
  await openApp(context, page);
  await exactly('Kept at the end', 2);
  expect(await keptOffline(page)).toBe(0);
  await context.close();
});

it('network cut: 10 errors offline, the page comes back online: exactly 10 occurrences', async () => {
  const context = await browser.newContext();
  const page = await openApp(context);
  await setOffline(context, page, true);
  await page.evaluate(() =>
    (window as unknown as { report: (t: string, n: number) => void }).report('Offline online', 10),
  );

  await until(async () => (await keptOffline(page)) === 10); // delivery failed, the reports were kept
  expect(await occurrences('Offline online')).toBe(0);
  await setOffline(context, page, false); // the page's `online` event
  await exactly('Offline online', 10);
  await context.close();
});

it('a stopped service: kept, then sent once by one of two tabs loaded at once', async () => {
  const context = await browser.newContext();
  const page = await openApp(context);
  const port = Number(new URL(service.url).port);
  await service.close(); // refused from now on
  try {
    await page.evaluate(() =>
      (window as unknown as { report: (t: string, n: number) => void }).report(
        'Service stopped',
        10,
      ),
    );
    await until(async () => (await keptOffline(page)) === 10);
  } finally {
    service = await startTestService({ dataDir, port });
  }
  await page.close();
  // Two tabs of the origin load at once: each looks for the reports kept; one takes them.
  await Promise.all([openApp(context), openApp(context)]);
  await exactly('Service stopped', 10);
  await context.close();
});

it('the queue keeps the newest 30, and says how many it dropped', async () => {
  const context = await browser.newContext();
  const page = await openApp(context);
  const warnings: string[] = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  await setOffline(context, page, true);
  await page.evaluate(() =>
    (window as unknown as { report: (t: string, n: number) => void }).report(
      'Offline overflow',
      35,
    ),
  );
  await until(async () => (await keptOffline(page)) === 30);
  await until(() => warnings.some((w) => w.includes('dropped from the offline queue')));
  await new Promise((r) => setTimeout(r, 1500)); // one line a second at most: no second one
  expect(warnings.filter((w) => w.includes('dropped'))).toEqual([
    expect.stringContaining(
      '5 report(s) dropped from the offline queue: it keeps the newest 30 until the service can be reached',
    ),
  ]);
  await setOffline(context, page, false);
  await exactly('Offline overflow', 30);
  await context.close();
});
