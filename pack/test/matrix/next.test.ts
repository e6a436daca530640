// Next in the matrix, and @svc/next's end-to-end test on the app create-next-app makes: one app
// (./next-app.ts: `create-next-app@16.4.3` as generated, set up as integrations/next/README.md
// says, from the packed tarballs), built once with each bundler (Turbopack, webpack), run with
// `npm start` against the reference service, browser in Chromium. The matrix's shared scenarios
// (./scenarios.ts) and the Next-only checks (./next-checks.ts) run on the same build.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { offlineFonts } from '@svc/testkit';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { exitScenarios } from './exit.ts';
import { buildNextApp, createNextApp, nextEnv, ROUTE_FILE, startNextApp } from './next-app.ts';
import { exactCounts, freshAppChecks, NEXT_TITLES, type NextRun } from './next-checks.ts';
import { REACT_TITLES } from './react-app.ts';
import { browserFailures, clientError, onlyThese, serverCrash, serverError } from './scenarios.ts';
import { clickOn, closeBrowser, scratch, service } from './shared.ts';
import {
  againKeepsVariant,
  expectMappedThrowSite,
  rebuildKeepsVariant,
  uploadedMaps,
} from './source-maps.ts';

/** The client page of the browser failures (./react-app.ts), a file of the app. */
const SCENARIOS_FILE = 'app/scenarios/page.tsx';

const TITLES = {
  serverError: 'Error: Order <n> could not be loaded (GET /api/orders/[id])',
  serverRejection: 'Error: Inventory sync failed (unhandled rejection)',
  exception: 'Error: Cache warm-up failed (uncaught exception)',
  ...REACT_TITLES,
};

const where = scratch('next');
let dir: string;

beforeAll(async () => {
  dir = await createNextApp(where.dir);
});
afterAll(async () => {
  await closeBrowser();
  where.done();
});

describe.each(['turbopack', 'webpack'] as const)(
  'Next (create-next-app@16.4.3) built with %s',
  (bundler) => {
    const running = { pages: [], consoles: [] } as unknown as NextRun;

    /** `npm run build -- --<bundler>` with offline fonts; its output. */
    async function build(env: NodeJS.ProcessEnv): Promise<string> {
      const fonts = await offlineFonts(dir);
      const started = Date.now();
      try {
        return await buildNextApp(dir, bundler, { ...env, ...fonts.env });
      } finally {
        await fonts.close();
        console.log(`[matrix next] npm run build -- --${bundler}: ${Date.now() - started} ms`);
      }
    }

    beforeAll(async () => {
      running.dir = dir;
      running.svc = await service();
      running.env = nextEnv(running.svc);
      running.buildOutput = await build(running.env);
      const { server, base } = await startNextApp(dir, running.env);
      Object.assign(running, { server, base });
      running.startControl = (env) => startNextApp(dir, env, { withoutCrashHandlers: true });
    });

    afterAll(async () => {
      for (const page of running.pages.splice(0)) await page.close();
      running.server?.kill();
      await running.server?.exited;
      await running.svc?.close();
    });

    serverError(() => running, 'next', {
      paths: ['/api/orders/1001', '/api/orders/1002'],
      title: TITLES.serverError,
      file: ROUTE_FILE,
    });
    // notFound() in the route handler.
    clientError(() => running, { path: '/api/orders/missing', titlesBefore: [TITLES.serverError] });
    // Next keeps its server running after both (its own listeners log them); so does Svc.
    serverCrash(() => running, 'next', {
      kind: 'unhandled-rejection',
      path: '/api/sync',
      title: TITLES.serverRejection,
      file: 'app/api/sync/route.ts',
      outcome: 'survives',
    });
    serverCrash(() => running, 'next', {
      kind: 'uncaught-exception',
      path: '/api/warm-up',
      title: TITLES.exception,
      file: 'app/api/warm-up/route.ts',
      outcome: 'survives',
    });
    uploadedMaps(() => running, {
      output: () => running.buildOutput,
      deployed: () => join(dir, '.next/static'),
      chunk: /^_next\/static\/chunks\/.+\.js$/,
      debugIds: bundler === 'turbopack',
    });
    // The README's error.tsx is the boundary; the service maps the browser's frames.
    browserFailures(() => running, 'next', {
      path: '/scenarios',
      titles: REACT_TITLES,
      file: SCENARIOS_FILE,
      framesAt: SCENARIOS_FILE,
      fallback: 'Something went wrong.',
    });
    it('the browser throw sites are mapped by the service, with their original function names', async () => {
      await expectMappedThrowSite(running, REACT_TITLES.browserError, {
        file: SCENARIOS_FILE,
        fn: 'emptyCart',
      });
      await expectMappedThrowSite(running, REACT_TITLES.boundary, {
        file: SCENARIOS_FILE,
        fn: 'Widget',
      });
    });
    freshAppChecks(() => running);
    onlyThese(
      () => running,
      [...Object.values(TITLES), ...Object.values(NEXT_TITLES)],
      () => running.server.output(),
    );
    // `next start` as the generator's app runs it (npm start), once: the server is the same for
    // both bundlers.
    if (bundler === 'turbopack')
      exitScenarios(
        'next',
        (url, svc) => startNextApp(dir, { ...nextEnv(svc), SERVICE_URL: url }),
        { path: '/api/orders/1001', title: TITLES.serverError },
      );
    exactCounts(() => running, {
      [TITLES.serverError]: 2,
      [TITLES.serverRejection]: 1,
      [TITLES.exception]: 1,
      [TITLES.browserError]: 2,
      [REACT_TITLES.rejection]: 1,
      [REACT_TITLES.boundary]: 1,
      [NEXT_TITLES.page]: 2,
      [NEXT_TITLES.route]: 2,
      [NEXT_TITLES.action]: 2,
      [NEXT_TITLES.client]: 2,
      [NEXT_TITLES.receipt]: 1,
      [NEXT_TITLES.stock]: 2,
    });
    // Last (it restarts the server): a new page, a rebuild under another release.
    rebuildKeepsVariant(() => running, {
      title: REACT_TITLES.boundary,
      async rebuild() {
        mkdirSync(join(dir, 'app/about'), { recursive: true });
        writeFileSync(
          join(dir, 'app/about/page.tsx'),
          'export default function About() {\n  return <p>About us</p>;\n}\n',
        );
        running.server.kill();
        await running.server.exited;
        running.env = { ...running.env, SERVICE_RELEASE: 'matrix@2' };
        await build(running.env);
        Object.assign(running, await startNextApp(dir, running.env));
      },
      async again() {
        const page = await clickOn(`${running.base}/scenarios`, '#error-boundary');
        running.pages.push(page);
        await page.waitForSelector('text=Something went wrong.');
      },
    });
    againKeepsVariant(() => running, {
      title: NEXT_TITLES.page,
      variant: 'Error: Order 1 missing',
      async again() {
        await fetch(`${running.base}/boom/1`).then((r) => r.text());
      },
    });
  },
);
