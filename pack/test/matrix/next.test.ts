// Next in the matrix: the app `create-next-app@16.4.3` makes (its own config: typed NextConfig,
// cacheComponents and partialPrefetching on), set up as integrations/next/README.md says, from the
// packed tarballs, built with Turbopack and with webpack (`npm run build`), run with `npm start`,
// browser in Chromium, against the reference service. Next reports no process-level crashes (it
// has no hook for them), so the server side has the request errors and a 4xx.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  commandLines,
  offlineFonts,
  readmeBlock,
  runSetup,
  type Spawned,
  sh,
  spawnProcess,
} from '@svc/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTitles, expectCard, expected, expectFramesAt } from './cards.ts';
import { REACT_TITLES, reactScenarios } from './react-app.ts';
import {
  appEnv,
  clickOn,
  closeBrowser,
  freePort,
  REPO_ROOT,
  scratch,
  service,
  type TestService,
  tarballs,
} from './shared.ts';

const README = join(REPO_ROOT, 'integrations/next/README.md');
const TITLES = {
  serverError: 'Error: Order <n> could not be loaded (GET /api/orders/[id])',
  ...REACT_TITLES,
};
const ROUTE_FILE = 'app/api/orders/[id]/route.ts';
/** A browser chunk of a production build: no browser source maps by default, hash masked. */
const CHUNK = /^_next\/static\/chunks\/.+\.js$/;

/** The app's own code: a failing route handler, and a client page with one failing button per kind. */
const APP_FILES: Record<string, string> = {
  [ROUTE_FILE]: `import { notFound } from 'next/navigation';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (id === 'missing') notFound();
  throw new Error(\`Order \${id} could not be loaded\`);
}
`,
  'app/scenarios/page.tsx': reactScenarios("'use client';\n"),
};

/** The README's two next.config.ts lines, added to the template's file. */
function addConfigLines(file: string): void {
  const block = readmeBlock(README, 'ts', 'withSvc(nextConfig)').split('\n');
  const importLine = block.find((line) => line.startsWith('import '))!;
  const exportLine = block.find((line) => line.startsWith('export default withSvc('))!;
  const lines = readFileSync(file, 'utf8').split('\n');
  const exported = lines.indexOf('export default nextConfig;');
  expect(exported).toBeGreaterThan(-1);
  lines[exported] = exportLine;
  lines.splice(lines.findLastIndex((line) => line.startsWith('import ')) + 1, 0, importLine);
  writeFileSync(file, lines.join('\n'));
}

const where = scratch('next');
let dir: string;

beforeAll(async () => {
  const setup = await runSetup(commandLines(readmeBlock(README, 'sh', 'create-next-app@')), {
    cwd: where.dir,
    tarballs: tarballs(),
    generatorFlags: { 'create-next-app': ['--skip-install', '--disable-git', '--use-npm'] },
  });
  dir = setup.dir;
  expect(setup.badEngines).toEqual([]);
  addConfigLines(join(dir, 'next.config.ts'));
  for (const [path, text] of Object.entries(APP_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // The README's own app/**/error.tsx boundary, for the scenarios page.
  writeFileSync(
    join(dir, 'app/scenarios/error.tsx'),
    readmeBlock(README, 'tsx', 'useSvcErrorReport(error)'),
  );
});
afterAll(async () => {
  await closeBrowser();
  where.done();
});

describe.each(['turbopack', 'webpack'] as const)(
  'Next (create-next-app@16.4.3) built with %s',
  (bundler) => {
    let svc: TestService;
    let app: Spawned;
    let base: string;
    const pages: Page[] = [];

    beforeAll(async () => {
      svc = await service();
      const fonts = await offlineFonts(dir);
      try {
        await sh('npm', ['run', 'build', '--', `--${bundler}`], dir, {
          ...appEnv(svc, 'next'),
          ...fonts.env,
        });
      } finally {
        await fonts.close();
      }
      const port = await freePort();
      app = spawnProcess('npm', ['start', '--', '-p', String(port), '-H', '127.0.0.1'], {
        cwd: dir,
        env: appEnv(svc, 'next'),
      });
      await app.waitFor(/Ready in/, 120_000);
      base = `http://127.0.0.1:${port}`;
    });

    afterAll(async () => {
      for (const page of pages) await page.close();
      app?.kill();
      await app?.exited;
      await svc?.close();
    });

    it('an unhandled server error: one card for two requests, named at the route file', async () => {
      expect((await fetch(`${base}/api/orders/1001`)).status).toBe(500);
      expect((await fetch(`${base}/api/orders/1002`)).status).toBe(500);
      await expectCard(
        svc,
        expected('server-error', 'next', {
          title: TITLES.serverError,
          file: ROUTE_FILE,
          occurrences: 2,
        }),
      );
    });

    it('its description frames are project-relative, through the server maps', async () => {
      const card = (await svc.cards()).find((c) => c.title === TITLES.serverError)!;
      expectFramesAt(card, ROUTE_FILE, dir);
    });

    it('a 4xx the app raises (notFound()) makes no card', async () => {
      expect((await fetch(`${base}/api/orders/missing`)).status).toBe(404);
      await new Promise((r) => setTimeout(r, 2500)); // one drain cadence
      expect(await allTitles(svc)).toEqual([TITLES.serverError]);
    });

    it('an unhandled browser error: one card for two page loads', async () => {
      pages.push(
        await clickOn(`${base}/scenarios`, '#browser-error'),
        await clickOn(`${base}/scenarios`, '#browser-error'),
      );
      await expectCard(
        svc,
        expected('browser-error', 'next', {
          title: TITLES.browserError,
          file: CHUNK,
          occurrences: 2,
        }),
      );
    });

    it('an unhandled rejection in the browser', async () => {
      pages.push(await clickOn(`${base}/scenarios`, '#browser-rejection'));
      await expectCard(
        svc,
        expected('browser-rejection', 'next', {
          title: TITLES.rejection,
          file: CHUNK,
          occurrences: 1,
        }),
      );
    });

    it('an error boundary (the README`s error.tsx) catches a render error: one card', async () => {
      const page = await clickOn(`${base}/scenarios`, '#error-boundary');
      pages.push(page);
      await page.waitForSelector('text=Something went wrong.');
      await expectCard(
        svc,
        expected('error-boundary', 'next', { title: TITLES.boundary, file: CHUNK, occurrences: 1 }),
      );
      await new Promise((r) => setTimeout(r, 2500));
      expect(await allTitles(svc)).toEqual(Object.values(TITLES).sort());
      expect(app.output()).not.toContain(svc.keys.signingSecret);
    });
  },
);
