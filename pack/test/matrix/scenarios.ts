// The matrix's scenarios, one definition each, registered by every framework's file for its app:
// the same failure, the same checks. `app()` gives the running app once its `beforeAll` ran.
import type { Spawned } from '@svc/testkit';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { allTitles, expectCard, expected, expectFramesAt } from './cards.ts';
import { clickOn, type MatrixService, type scratch } from './shared.ts';

type Framework = Parameters<typeof expected>[1];

/** A built app, running against its own reference service. */
export interface RunningApp {
  svc: MatrixService;
  /** The app's origin (`http://127.0.0.1:<port>`). */
  base: string;
  /** The app's directory (no frame may name it). */
  dir: string;
  /** Pages left open until their reports are in; closed by the file's `afterAll`. */
  pages: Page[];
  /** The server process (for the crash scenarios). */
  server?: Spawned;
}

/**
 * An unhandled server error, twice with another id in the message: one card with two occurrences
 * at the route file, whose throw-site frame is mapped to it.
 */
export function serverError(
  app: () => RunningApp,
  framework: Framework,
  failure: { paths: [string, string]; title: string; file: string },
): void {
  it('an unhandled server error: one card for two requests, named at the route file', async () => {
    const { svc, base } = app();
    for (const path of failure.paths) expect((await fetch(base + path)).status).toBe(500);
    await expectCard(svc, expected('server-error', framework, { ...failure, occurrences: 2 }));
  });

  it('its description frames are project-relative, through the source maps', async () => {
    const card = (await app().svc.cards()).find((c) => c.title === failure.title)!;
    expectFramesAt(card, failure.file, app().dir);
  });
}

/** Whether `server` has ended (without waiting for it). */
async function ended(server: Spawned): Promise<number | string | undefined> {
  return Promise.race([server.exited, new Promise<undefined>((r) => setTimeout(r, 50))]);
}

/**
 * A crash of the server process (an error thrown from a timer, a rejected promise nobody awaits),
 * set off by requesting `path`: one `critical` card at the throw site, with mapped frames, and
 * the process doing what it does without Svc: exiting with code 1 (Node's default), or, where the
 * framework keeps its server running (Next, Nitro), answering the next request.
 */
export function serverCrash(
  app: () => RunningApp,
  framework: Framework,
  failure: {
    kind: 'uncaught-exception' | 'unhandled-rejection';
    path: string;
    title: string;
    file: string;
    outcome: 'exits' | 'survives';
  },
): void {
  const what = failure.kind.replace('-', ' ');
  const outcome = failure.outcome === 'exits' ? 'the process exits (code 1)' : 'it keeps serving';
  it(`an ${what} on the server: one critical card, then ${outcome}`, async () => {
    const { svc, base, server } = app();
    const answer = await fetch(base + failure.path).catch(() => undefined);
    if (failure.outcome === 'exits') expect(await server!.exited).toBe(1);
    else expect(answer?.status).toBe(200);
    const card = await expectCard(
      svc,
      expected(failure.kind, framework, { ...failure, occurrences: 1 }),
    );
    expectFramesAt(card, failure.file, app().dir);
    if (failure.outcome === 'survives') {
      expect(await ended(server!)).toBeUndefined();
      expect((await fetch(`${base}/`)).status).toBe(200);
    }
  });
}

/**
 * A 4xx the app raises: the framework's status, and no card besides the ones already made. A card
 * it made late is caught by `onlyThese`, which every file registers last and which waits a drain
 * cadence once for all the scenarios (a wait here too would cost every app of the matrix 2.5 s).
 */
export function clientError(
  app: () => RunningApp,
  failure: { path: string; titlesBefore: string[] },
): void {
  it('a 4xx the app raises makes no card', async () => {
    const { svc, base } = app();
    expect((await fetch(base + failure.path)).status).toBe(404);
    expect(await allTitles(svc)).toEqual([...failure.titlesBefore].sort());
  });
}

/** The browser's failures, from one page with a button per kind (`#browser-error`, ...). */
export function browserFailures(
  app: () => RunningApp,
  framework: Framework,
  page: {
    path: string;
    titles: { browserError: string; rejection: string; boundary: string };
    /** `file_name` of the window error and rejection, and of the boundary's error. */
    file: string | RegExp;
    boundaryFile?: string | RegExp;
    /** The boundary's fallback, shown once it caught the error. */
    fallback?: string;
    /** The throw site's file in the frames, where the browser resolves them (`sourceMaps`). */
    framesAt?: string;
  },
): void {
  const open = async (selector: string) => {
    const opened = await clickOn(app().base + page.path, selector);
    app().pages.push(opened);
    return opened;
  };

  it('an unhandled browser error: one card for two page loads', async () => {
    await open('#browser-error');
    await open('#browser-error');
    const { title } = { title: page.titles.browserError };
    await expectCard(
      app().svc,
      expected('browser-error', framework, { title, file: page.file, occurrences: 2 }),
    );
  });

  if (page.framesAt) {
    const framesAt = page.framesAt;
    it('its description frames are project-relative, through the browser source maps', async () => {
      const card = (await app().svc.cards()).find((c) => c.title === page.titles.browserError)!;
      expectFramesAt(card, framesAt, app().dir);
    });
  }

  it('an unhandled rejection in the browser', async () => {
    await open('#browser-rejection');
    const title = page.titles.rejection;
    await expectCard(
      app().svc,
      expected('browser-rejection', framework, { title, file: page.file, occurrences: 1 }),
    );
  });

  it('an error boundary catches a render error: one card, not reported again as uncaught', async () => {
    const opened = await open('#error-boundary');
    if (page.fallback) await opened.waitForSelector(`text=${page.fallback}`);
    const title = page.titles.boundary;
    const file = page.boundaryFile ?? page.file;
    await expectCard(
      app().svc,
      expected('error-boundary', framework, { title, file, occurrences: 1 }),
    );
  });
}

/** Last: exactly the expected cards, and no secret in the app's output. */
export function onlyThese(app: () => RunningApp, titles: string[], output?: () => string): void {
  it('made exactly these cards; the app printed no secret', async () => {
    await new Promise((r) => setTimeout(r, 2500)); // a late duplicate would arrive by now
    expect(await allTitles(app().svc)).toEqual([...titles].sort());
    if (output) expect(output()).not.toContain(app().svc.keys.signingSecret);
  });
}

/** An app the matrix prepares in its file's beforeAll, with its reference service, as far as they got. */
export interface PreparedApp {
  where: ReturnType<typeof scratch>;
  running: RunningApp;
  app?: Spawned;
  ended?: boolean;
}

/** Ends what a file's `prepare` started, once: the app, its reference service, its folder. */
export async function endPrepared(state: PreparedApp): Promise<void> {
  if (state.ended) return;
  state.ended = true;
  for (const page of state.running.pages) await page.close().catch(() => undefined);
  state.app?.kill('SIGKILL');
  await state.app?.exited;
  await state.running.svc?.close();
  state.where.done();
}
