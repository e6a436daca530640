// The fresh create-next-app app (its own config: typed NextConfig, cacheComponents and
// partialPrefetching on), set up as the README says, built with one bundler and started against
// the reference service. Every failure is one report: two requests make one card with two
// occurrences, and nothing else; the SDK prints nothing into the app's output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '@svc/server/testing';
import { launchChromium, type Spawned } from '@svc/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitUntil } from '../e2e/app.ts';
import { freshApp } from './create.ts';
import { offlineFonts } from '@svc/testkit';
import { type Bundler, build, readmeEnv, start } from './run.ts';

const TITLES = {
  page: 'Error: Order <n> missing (GET /boom/[id])',
  route: 'SyntaxError: limit must be a number (GET /api/orders)',
  action: 'Error: Payment provider rejected the order (POST /checkout)',
  client: 'TypeError: Cannot read properties of undefined (reading <value>) (React component)',
};
const PAGE_FILE = 'app/boom/[id]/page.tsx';

/** What the SDK must never print into the app's output (build, server, browser console). */
const SDK_NOISE = [/\[svc\]/, /unstable value/, /while prerendering/, /flush not done/];

export function freshAppSuite(bundler: Bundler) {
  describe(`create-next-app@16.4.3 as generated, built with ${bundler}`, () => {
    let service: TestService;
    let app: Spawned | undefined;
    let url: string;
    let dir: string;
    let buildOutput = '';
    const consoleLines: string[] = [];
    let browser: Browser | undefined;

    beforeAll(async () => {
      const fresh = await freshApp(inject('freshRoot'));
      dir = fresh.dir;
      console.log(`[next fresh] ${dir}: ${JSON.stringify(fresh.timings)} ms`);
      service = await startTestService();
      const env = readmeEnv(service);
      const fonts = await offlineFonts(dir);
      const started = Date.now();
      try {
        buildOutput = await build(dir, bundler, { ...env, ...fonts.env });
      } finally {
        await fonts.close();
      }
      console.log(`[next fresh] next build --${bundler}: ${Date.now() - started} ms`);
      ({ url, app } = await start(dir, env));
    });

    afterAll(async () => {
      await browser?.close();
      app?.kill();
      await app?.exited;
      await service?.close();
    });

    const cards = (title: string) =>
      service.cards().then((all) => all.filter((card) => card.title === title));
    const occurrences = async (title: string) =>
      (await cards(title)).reduce((sum, card) => sum + card.occurrence_count, 0);
    /** Waits for `count` occurrences, then requires exactly one card holding exactly them. */
    const oneCard = async (title: string, count: number) => {
      const found = await waitUntil(
        () => cards(title),
        (c) => c.length === 1 && c[0]!.occurrence_count >= count,
      );
      // A report lost, or sent twice, shows here.
      expect(found.map((card) => [card.title, card.occurrence_count])).toEqual([[title, count]]);
      return found[0]!;
    };
    const click = async (path: string, selector: string, done: string) => {
      browser ??= await launchChromium();
      const page = await browser.newPage();
      page.on('console', (message) => consoleLines.push(message.text()));
      await page.goto(url + path);
      await page.click(selector);
      await page.waitForSelector(done);
      return page;
    };

    it('two requests to a failing server component make one card with two occurrences', async () => {
      await fetch(`${url}/boom/1`).then((r) => r.text());
      await fetch(`${url}/boom/2`).then((r) => r.text());
      const card = await oneCard(TITLES.page, 2);
      expect([card.severity, card.priority]).toEqual(['major', 'medium']);
      // No per-event value among the tags: the digest is a line of the description.
      expect(card.tags.sort()).toEqual(
        ['env:production', 'next', 'server', 'server-error', 'method:GET'].sort(),
      );
      expect(card.description).toMatch(/^Error: Order 1 missing\n/);
      expect(card.description).toMatch(/\nDigest: \d+$/m);
    });

    it('its file_name and description frames point at app/boom/[id]/page.tsx', async () => {
      const [card] = await cards(TITLES.page);
      expect(card!.file_name).toBe(PAGE_FILE);
      // The throw site, as the source says, project-relative; no host path, chunk or scheme.
      const source = readFileSync(join(dir, PAGE_FILE), 'utf8').split('\n');
      const line = source.findIndex((l) => l.includes('throw new Error')) + 1;
      const frames = String(card!.description)
        .split('\n')
        .filter((l) => /^\s+at /.test(l));
      expect(frames[0]).toMatch(
        new RegExp(`^ {4}at loadOrder \\(app/boom/\\[id\\]/page\\.tsx:${line}:\\d+\\)$`),
      );
      for (const frame of frames) {
        expect(frame).not.toContain(dir);
        expect(frame).not.toMatch(/\.next\/|webpack:\/\/|file:\/\/|turbopack/);
      }
    });

    it('a route handler answers before its report is sent (the background queue delivers it)', async () => {
      // After the page's report arrived (the 2.05 s case of a response held by a flush).
      expect((await fetch(`${url}/api/orders`)).status).toBe(500);
      expect(await occurrences(TITLES.route)).toBe(0);
      expect((await fetch(`${url}/api/orders`)).status).toBe(500);
      const card = await oneCard(TITLES.route, 2);
      expect(card.tags.sort()).toEqual(
        ['env:production', 'next', 'server', 'server-error', 'method:GET'].sort(),
      );
      expect(card.file_name).toBe('app/api/orders/route.ts');
    });

    it('a failing server action makes one card per click (app/checkout/error.tsx does not resend it)', async () => {
      for (let i = 1; i <= 2; i++) {
        const page = await click('/checkout', '#place-order', 'text=Something went wrong.');
        await waitUntil(
          () => occurrences(TITLES.action),
          (n) => n >= i,
        );
        await page.close();
      }
      const card = await oneCard(TITLES.action, 2);
      expect(card.tags).toEqual(expect.arrayContaining(['method:POST', 'env:production']));
    });

    it('a client component error reaching the generated global-error.tsx makes one card per click', async () => {
      for (let i = 1; i <= 2; i++) {
        const page = await click('/cart', '#break-cart', 'text=Something went wrong.');
        await waitUntil(
          () => occurrences(TITLES.client),
          (n) => n >= i,
        );
        await page.close();
      }
      const card = await oneCard(TITLES.client, 2);
      expect(card.tags.sort()).toEqual(
        ['env:production', 'next', 'browser', 'error-boundary'].sort(),
      );
    });

    it('made exactly these cards, and server reports left without holding a response', async () => {
      const all = await service.cards();
      expect(all.map((c) => [c.title, c.occurrence_count]).sort()).toEqual(
        Object.values(TITLES)
          .map((title) => [title, 2])
          .sort(),
      );
      const output = app!.output();
      const flushed = (title: string) =>
        [...output.matchAll(/\[svc\/next\] reported "(.+)"; flush (.+)/g)]
          .filter((m) => m[1] === title)
          .map((m) => m[2]);
      // One report per failing request, though Next calls onRequestError twice per page request;
      // on a long-running server (`next start`) none of them holds its response.
      const background = ['left to the background queue', 'left to the background queue'];
      expect(flushed(TITLES.page)).toEqual(background);
      expect(flushed(TITLES.action)).toEqual(background);
      expect(flushed(TITLES.route)).toEqual(background);
    });

    it('the SDK prints nothing into the build, the server or the browser console', () => {
      const lines = [buildOutput, app!.output(), ...consoleLines]
        .join('\n')
        .split('\n')
        .filter((line) => !line.startsWith('[svc/next] reported '));
      for (const noise of SDK_NOISE) expect(lines.filter((l) => noise.test(l))).toEqual([]);
    });
  });
}
