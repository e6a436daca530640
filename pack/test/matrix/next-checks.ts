// What the Next app is checked for beyond the matrix's shared scenarios, on the app
// create-next-app makes (a failing server component: one card, two occurrences, frames at
// app/boom/[id]/page.tsx; Next's own frames as node_modules/next/...), each server and client
// error exactly once under cacheComponents, no response held by a flush, no SDK output; and the
// crashes of the server process only a Next app has (a server action's background work, a
// promise a render awaits late), with the server surviving them exactly as it does without
// Svc's crash handlers.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService } from '@svc/server/testing';
import type { Spawned } from '@svc/testkit';
import { expect, it } from 'vitest';
import { cardTitled, expectCard, expected, expectFramesAt, frames, location } from './cards.ts';
import type { RunningApp } from './scenarios.ts';
import { openPage, RELEASE, until } from './shared.ts';

/** The running Next app, with what its build printed and its pages' console lines. */
export interface NextRun extends RunningApp {
  server: Spawned;
  buildOutput: string;
  /** The console lines of each page the checks opened (filled while the page lives). */
  consoles: string[][];
  env: NodeJS.ProcessEnv;
  /** Starts another server of the same build (the control, without Svc's crash handlers). */
  startControl(env: NodeJS.ProcessEnv): Promise<{ server: Spawned; base: string }>;
}

export const NEXT_TITLES = {
  page: 'Error: Order <n> missing (GET /boom/[id])',
  route: 'SyntaxError: limit must be a number (GET /api/orders)',
  action: 'Error: Payment provider rejected the order (POST /checkout)',
  client: 'TypeError: Cannot read properties of undefined (reading <value>) (React component)',
  receipt: 'Error: Receipt mailer unreachable (unhandled rejection)',
  stock: 'Error: Stock <n> unavailable (GET /stock/[id])',
};
const PAGE_FILE = 'app/boom/[id]/page.tsx';
const SERVER_TAGS = (method: string) =>
  [
    'next',
    'server',
    'server-error',
    `method:${method}`,
    'env:production',
    `release:${RELEASE}`,
  ].sort();

/** What the SDK must never print into the app's output (build, server, browser console). */
const SDK_NOISE = [/\[svc\]/, /unstable value/, /while prerendering/, /flush not done/];

/** The crash routes (next-app/app/api/...): what each sets off. */
const CRASHES = ['/api/sync', '/api/warm-up'];

export function freshAppChecks(app: () => NextRun): void {
  const occurrences = async (title: string) =>
    (await app().svc.cards())
      .filter((card) => card.title === title)
      .reduce((sum, card) => sum + card.occurrence_count, 0);
  const click = async (path: string, selector: string, done: string) => {
    const { page, console } = await openPage(app().base + path);
    app().consoles.push(console);
    await page.click(selector);
    await page.waitForSelector(done);
    return page;
  };

  it('two requests to a failing server component make one card with two occurrences', async () => {
    const { svc, base } = app();
    await fetch(`${base}/boom/1`).then((r) => r.text());
    await fetch(`${base}/boom/2`).then((r) => r.text());
    const card = await cardTitled(svc, NEXT_TITLES.page, 2);
    expect([card.severity, card.priority]).toEqual(['major', 'medium']);
    // No per-event value among the tags: the digest is a line of the description.
    expect([...card.tags].sort()).toEqual(SERVER_TAGS('GET'));
    expect(card.description).toMatch(/^Error: Order 1 missing\n/);
    expect(card.description).toMatch(/\nDigest: \d+$/m);
  });

  it('its file_name and description frames point at app/boom/[id]/page.tsx', async () => {
    const { svc, dir } = app();
    const card = (await svc.cards()).find((c) => c.title === NEXT_TITLES.page)!;
    expect(card.file_name).toBe(PAGE_FILE);
    // The throw site, as the source says, project-relative; no host path, chunk or scheme.
    const source = readFileSync(join(dir, PAGE_FILE), 'utf8').split('\n');
    const line = source.findIndex((l) => l.includes('throw new Error')) + 1;
    const frames = String(card.description)
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
    const { svc, base } = app();
    // After the page's report arrived (the 2.05 s case of a response held by a flush).
    expect((await fetch(`${base}/api/orders`)).status).toBe(500);
    expect(await occurrences(NEXT_TITLES.route)).toBe(0);
    expect((await fetch(`${base}/api/orders`)).status).toBe(500);
    const card = await cardTitled(svc, NEXT_TITLES.route, 2);
    expect([...card.tags].sort()).toEqual(SERVER_TAGS('GET'));
    expect(card.file_name).toBe('app/api/orders/route.ts');
  });

  it("frames inside Next read node_modules/next/..., never like the app's own code", async () => {
    const cards = await app().svc.cards();
    const all = cards.map((card) => String(card.description)).join('\n\n');
    const places = cards.flatMap((card) => frames(card).flatMap((line) => location(line) ?? []));
    // The app's own files, a dependency's (`node_modules/<package>/...`) or Node's: never a
    // dependency's source named as if it were the app's (`src/server/route-modules/...`).
    const own = places.filter((place) => !/^(?:node_modules\/|node:|internal\/)/.test(place));
    expect(
      own.filter((place) => !existsSync(join(app().dir, place))),
      all,
    ).toEqual([]);
    expect(
      places.filter((place) => place.startsWith('node_modules/next/')),
      all,
    ).not.toEqual([]);
  });

  it('a failing server action makes one card per click (app/checkout/error.tsx does not resend it)', async () => {
    for (let i = 1; i <= 2; i++) {
      const page = await click('/checkout', '#place-order', 'text=Something went wrong.');
      await until(
        () => occurrences(NEXT_TITLES.action),
        (n) => n >= i,
      );
      await page.close();
    }
    const card = await cardTitled(app().svc, NEXT_TITLES.action, 2);
    expect([...card.tags].sort()).toEqual(SERVER_TAGS('POST'));
  });

  it('a client component error reaching the generated global-error.tsx makes one card per click', async () => {
    for (let i = 1; i <= 2; i++) {
      const page = await click('/cart', '#break-cart', 'text=Something went wrong.');
      await until(
        () => occurrences(NEXT_TITLES.client),
        (n) => n >= i,
      );
      await page.close();
    }
    const card = await cardTitled(app().svc, NEXT_TITLES.client, 2);
    expect([...card.tags].sort()).toEqual(
      ['env:production', 'next', 'browser', 'error-boundary', `release:${RELEASE}`].sort(),
    );
  });

  it("a server action's background work rejecting after the action answered: one critical card", async () => {
    const { page, console } = await openPage(`${app().base}/receipt`);
    app().consoles.push(console);
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('#send-receipt'),
    ]);
    await page.close();
    const card = await expectCard(
      app().svc,
      expected('unhandled-rejection', 'next', {
        title: NEXT_TITLES.receipt,
        file: 'app/receipt/actions.ts',
        occurrences: 1,
      }),
    );
    expectFramesAt(card, 'app/receipt/actions.ts', app().dir);
  });

  it('a promise a server component awaits late: the page error, once, not also an unhandled rejection', async () => {
    const { svc, base } = app();
    await fetch(`${base}/stock/7`).then((r) => r.text());
    await fetch(`${base}/stock/8`).then((r) => r.text());
    const card = await cardTitled(svc, NEXT_TITLES.stock, 2);
    expect([...card.tags].sort()).toEqual(SERVER_TAGS('GET'));
    expect(card.file_name).toBe('app/stock/[id]/page.tsx');
    await new Promise((r) => setTimeout(r, 2500)); // past the rejection's grace, one drain cadence
    const titles = (await svc.cards()).map((c) => c.title);
    expect(titles.filter((t) => t.startsWith('Error: Stock'))).toEqual([NEXT_TITLES.stock]);
  });

  it("the server survives every crash as Next does without Svc's crash handlers, logging them alike", async () => {
    const controlSvc = await startTestService();
    const control = await app().startControl({ ...app().env, SERVICE_URL: controlSvc.url });
    try {
      for (const path of CRASHES) await fetch(control.base + path).then((r) => r.text());
      await fetch(`${control.base}/stock/9`).then((r) => r.text());
      await new Promise((r) => setTimeout(r, 2500));
      // Without them: alive, answering, and no crash card sent (the control had none).
      expect(await Promise.race([control.server.exited, 'running'])).toBe('running');
      expect((await fetch(`${control.base}/`)).status).toBe(200);
      expect((await controlSvc.cards()).filter((c) => c.severity === 'critical')).toEqual([]);
      // With them (the same crashes, set off above): the same.
      expect(await Promise.race([app().server.exited, 'running'])).toBe('running');
      expect((await fetch(`${app().base}/`)).status).toBe(200);
      // Next's own log lines of the crashes are printed with Svc as without it.
      const nextLines = (output: string) =>
        [
          ...output.matchAll(
            /^.*(uncaughtException|unhandledRejection).*(Inventory sync failed|Cache warm-up failed).*$/gm,
          ),
        ].map((m) => `${m[1]} ${m[2]}`);
      const without = nextLines(control.server.output());
      expect(without.sort()).toEqual(
        [
          'unhandledRejection Inventory sync failed',
          'uncaughtException Cache warm-up failed',
        ].sort(),
      );
      expect(new Set(nextLines(app().server.output()))).toEqual(new Set(without));
    } finally {
      control.server.kill();
      await control.server.exited;
      await controlSvc.close();
    }
  });

  it('server reports left without holding a response', () => {
    const output = app().server.output();
    const flushed = (title: string) =>
      [...output.matchAll(/\[svc\/next\] reported "(.+)"; flush (.+)/g)]
        .filter((m) => m[1] === title)
        .map((m) => m[2]);
    // One report per failing request, though Next calls onRequestError twice per page request;
    // on a long-running server (`next start`) none of them holds its response.
    const background = ['left to the background queue', 'left to the background queue'];
    expect(flushed(NEXT_TITLES.page)).toEqual(background);
    expect(flushed(NEXT_TITLES.action)).toEqual(background);
    expect(flushed(NEXT_TITLES.route)).toEqual(background);
  });

  it('the SDK prints nothing into the build, the server or the browser console', () => {
    // Besides the debug lines of the preload and the build's one line about its source maps.
    const lines = [app().buildOutput, app().server.output(), ...app().consoles.flat()]
      .join('\n')
      .split('\n')
      .filter((line) => !line.startsWith('[svc/next] reported '))
      .filter((line) => !/^\[svc\] uploaded \d+ source maps for release \S+$/.test(line));
    for (const noise of SDK_NOISE) expect(lines.filter((l) => noise.test(l))).toEqual([]);
  });
}

/** Last: every card with its exact count (one report per failure, none lost, none twice). */
export function exactCounts(app: () => RunningApp, counts: Record<string, number>): void {
  it('made exactly these cards, each as often as its failure happened', async () => {
    const all = await app().svc.cards();
    expect(all.map((c) => [c.title, c.occurrence_count]).sort()).toEqual(
      Object.entries(counts).sort(),
    );
  });
}
