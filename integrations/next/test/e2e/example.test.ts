// End to end: the example app built by webpack and by Turbopack, each against its own reference
// service. Every failing path must make exactly one card with a stable title (a second failure
// folds into it), redirect()/notFound() none, and no secret may reach the browser output.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '@svc/server/testing';
import { afterNode24Leg, launchChromium, type Spawned } from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanStatic } from '../../src/cli/check.ts';
import { type Bundler, buildExample, EXAMPLE_DIR, startExample, waitUntil } from './app.ts';

// The kit's one title format: `Name: masked message (place)`.
const TITLES = {
  serverComponent: 'Error: Order service unavailable (request at <n>) (GET /server-error)',
  routeHandler: 'TypeError: Cannot read properties of undefined (reading <value>) (GET /api/boom)',
  edgeRouteHandler: 'SyntaxError: limit must be a number (GET /api/edge-boom)',
  serverAction: 'Error: Payment provider rejected the order (POST /action)',
  clientComponent:
    'TypeError: Cannot read properties of undefined (reading <value>) (React component)',
  boundary: 'RangeError: Widget size out of range (React component)',
  globalError: 'Error: Theme provider missing (React component)',
  rejection: 'Error: Inventory sync failed (unhandled rejection)',
};

it("the example's README shows each of these titles, as the board does", () => {
  const readme = readFileSync(join(EXAMPLE_DIR, 'README.md'), 'utf8');
  for (const title of Object.values(TITLES)) expect(readme).toContain(`\`${title}\``);
});

let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  // `next build` regenerates this file (its content depends on distDir); it is git-ignored, and
  // removing it keeps the repository's prettier/biome runs off generated code.
  rmSync(join(EXAMPLE_DIR, 'next-env.d.ts'), { force: true });
});

// npm test's Node 20 leg builds with Turbopack only (Next 16's default): withSvc, the server's hooks
// and the browser code run there on Node 20 once; webpack's build of the same code ran in the same
// run's Node 24 leg (a second build here took about 60 s for what Node 20 does not change).
const node24Leg = afterNode24Leg();
const BUNDLERS: Bundler[] = node24Leg ? ['turbopack'] : ['webpack', 'turbopack'];
if (node24Leg) {
  console.log(
    `[next e2e] Node ${process.versions.node}: Turbopack only; webpack's build ran on Node ${node24Leg} in this npm test`,
  );
}

describe.each<Bundler>(BUNDLERS)('example app built with %s', (bundler) => {
  // Under .next/ so the repository's ignore rules (git, prettier, biome) already cover it.
  const distDir = `.next/${bundler}`;
  let service: TestService;
  let app: Spawned | undefined;
  let appUrl: string;

  const cardsTitled = async (title: string) =>
    (await service.cards()).filter((card) => card.title === title);
  const oneCard = async (title: string, occurrences: number) => {
    const cards = await waitUntil(
      () => cardsTitled(title),
      (c) => c.length === 1 && c[0]!.occurrence_count >= occurrences,
    );
    expect(cards.map((c) => [c.title, c.occurrence_count])).toEqual([[title, occurrences]]);
    return cards[0]!;
  };
  const openPage = async (path: string): Promise<Page> => {
    browser ??= await launchChromium();
    const page = await browser.newPage();
    await page.goto(appUrl + path);
    return page;
  };

  beforeAll(async () => {
    service = await startTestService();
    rmSync(join(EXAMPLE_DIR, distDir), { recursive: true, force: true });
    await buildExample(bundler, distDir, service.keys, service.url);
    const started = await startExample(distDir, service.keys, service.url);
    app = started.app;
    appUrl = started.url;
  });

  afterAll(async () => {
    app?.kill();
    await app?.exited;
    await service?.close();
  });

  it('redirect() and notFound() answer normally and make no card', async () => {
    const redirect = await fetch(`${appUrl}/redirect`, { redirect: 'manual' });
    expect(redirect.status).toBe(307);
    const missing = await fetch(`${appUrl}/missing`);
    expect(missing.status).toBe(404);
    // Give a (wrong) report time to arrive before checking; the final test checks again.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await service.cards()).toEqual([]);
  });

  // The page's message carries the request time, different on each request: one card all the same.
  it('a failing server component makes one card though its message differs per request, tagged as every server error, the digest in the description', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await fetch(`${appUrl}/server-error`)).status).toBe(500);
    }
    const card = await oneCard(TITLES.serverComponent, 2);
    expect(card).toMatchObject({ severity: 'major', priority: 'medium' });
    expect(card.tags).toEqual(
      expect.arrayContaining(['next', 'server', 'server-error', 'method:GET', 'release:e2e']),
    );
    expect(card.tags.filter((t) => t.startsWith('digest:'))).toEqual([]);
    expect(card.description).toContain('Order service unavailable');
    expect(card.description).toMatch(/\nDigest: \d+$/m);
  });

  it('a failing route handler makes one card', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await fetch(`${appUrl}/api/boom`)).status).toBe(500);
    }
    const card = await oneCard(TITLES.routeHandler, 2);
    expect(card.tags).toContain('server-error');
  });

  it('a failing edge route handler makes one card (register() ran in the edge runtime)', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await fetch(`${appUrl}/api/edge-boom`)).status).toBe(500);
    }
    const card = await oneCard(TITLES.edgeRouteHandler, 2);
    // Next 16 itself passes routerKind 'Pages Router' for edge app route handlers.
    expect(card.tags).toEqual(expect.arrayContaining(['server-error', 'release:e2e']));
  });

  it('a promise a route handler never awaits: one critical card, and the server keeps serving', async () => {
    expect((await fetch(`${appUrl}/api/sync`)).status).toBe(200);
    const card = await oneCard(TITLES.rejection, 1);
    expect(card).toMatchObject({ severity: 'critical', priority: 'high' });
    expect(card.tags.sort()).toEqual(
      ['next', 'server', 'unhandled-rejection', 'env:production', 'release:e2e'].sort(),
    );
    expect(card.file_name).toBe('app/api/sync/route.ts');
    expect(app!.output()).toMatch(/unhandledRejection.*Inventory sync failed/);
    expect((await fetch(`${appUrl}/api/sync`)).status).toBe(200);
    await oneCard(TITLES.rejection, 2);
  });

  it('a failing server action makes one card (the boundary does not report it again)', async () => {
    for (let i = 0; i < 2; i++) {
      const page = await openPage('/action');
      await page.click('#place-order');
      await page.waitForSelector('#action-failed');
      await page.waitForTimeout(500);
      await page.close();
    }
    const card = await oneCard(TITLES.serverAction, 2);
    expect(card.tags).toContain('method:POST');
  });

  it('a client component error clicked in Chromium makes one card (app/error.tsx)', async () => {
    for (let i = 0; i < 2; i++) {
      const page = await openPage('/client-error');
      await page.click('#break-cart');
      await page.waitForSelector('#cart-failed');
      await waitUntil(
        () => cardsTitled(TITLES.clientComponent),
        (c) => c.length === 1 && c[0]!.occurrence_count === i + 1,
      );
      await page.close();
    }
    const card = await oneCard(TITLES.clientComponent, 2);
    expect(card.tags).toEqual(
      expect.arrayContaining(['next', 'browser', 'error-boundary', 'release:e2e']),
    );
  });

  it('an error caught by <SvcErrorBoundary> in Chromium makes one card', async () => {
    const page = await openPage('/boundary');
    await page.click('#break-widget');
    await page.waitForSelector('#widget-failed');
    await oneCard(TITLES.boundary, 1);
    await page.close();
  });

  it('an error that escapes to the generated app/global-error.tsx makes one card', async () => {
    const page = await openPage('/global');
    await page.click('#break-theme');
    await page.waitForSelector('text=Something went wrong.');
    await oneCard(TITLES.globalError, 1);
    await page.close();
  });

  it('made exactly the expected cards, nothing for redirect/notFound', async () => {
    const titles = (await service.cards()).map((c) => c.title).sort();
    expect(titles).toEqual(Object.values(TITLES).sort());
  });

  it('under next start: every server report is left to the background queue, no response waits', () => {
    // A long-running server has no platform waitUntil: the queue sends, nothing is flushed per
    // request (the edge route runs in next start's own process too).
    const output = app!.output();
    const flushed = (title: string, how: string) =>
      expect(output).toContain(`[svc/next] reported "${title}"; flush ${how}`);
    flushed(TITLES.serverComponent, 'left to the background queue');
    flushed(TITLES.serverAction, 'left to the background queue');
    flushed(TITLES.routeHandler, 'left to the background queue');
    flushed(TITLES.edgeRouteHandler, 'left to the background queue');
    expect(output).not.toContain('flush not done');
    expect(output).not.toContain(service.keys.signingSecret);
  });

  it('no secret reaches the browser output, while the publishable key does', () => {
    const dist = join(EXAMPLE_DIR, distDir);
    const value = (variable: string, found: string) => [{ variable, value: found }];
    expect(scanStatic(dist, value('SERVICE_SIGNING_SECRET', service.keys.signingSecret))).toEqual(
      [],
    );
    // The same scan finds the publishable key, which Next inlines on purpose: the scan can fail.
    expect(
      scanStatic(dist, value('NEXT_PUBLIC_SERVICE_API_KEY', service.keys.apiKey)).length,
    ).toBeGreaterThan(0);
  });
});
