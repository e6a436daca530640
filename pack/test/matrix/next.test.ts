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
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { REACT_TITLES, reactScenarios } from './react-app.ts';
import {
  browserFailures,
  clientError,
  onlyThese,
  type RunningApp,
  serverError,
} from './scenarios.ts';
import { appEnv, closeBrowser, freePort, REPO_ROOT, scratch, service, tarballs } from './shared.ts';

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
    const running = { pages: [] } as unknown as RunningApp;
    let app: Spawned;

    beforeAll(async () => {
      running.dir = dir;
      running.svc = await service();
      const fonts = await offlineFonts(dir);
      try {
        await sh('npm', ['run', 'build', '--', `--${bundler}`], dir, {
          ...appEnv(running.svc, 'next'),
          ...fonts.env,
        });
      } finally {
        await fonts.close();
      }
      const port = await freePort();
      app = spawnProcess('npm', ['start', '--', '-p', String(port), '-H', '127.0.0.1'], {
        cwd: dir,
        env: appEnv(running.svc, 'next'),
      });
      await app.waitFor(/Ready in/, 120_000);
      running.base = `http://127.0.0.1:${port}`;
    });

    afterAll(async () => {
      for (const page of running.pages.splice(0)) await page.close();
      app?.kill();
      await app?.exited;
      await running.svc?.close();
    });

    serverError(() => running, 'next', {
      paths: ['/api/orders/1001', '/api/orders/1002'],
      title: TITLES.serverError,
      file: ROUTE_FILE,
    });
    // notFound() in the route handler.
    clientError(() => running, { path: '/api/orders/missing', titlesBefore: [TITLES.serverError] });
    // The README's error.tsx is the boundary; no browser source maps in a default production build.
    browserFailures(() => running, 'next', {
      path: '/scenarios',
      titles: REACT_TITLES,
      file: CHUNK,
      fallback: 'Something went wrong.',
    });
    onlyThese(
      () => running,
      Object.values(TITLES),
      () => app.output(),
    );
  },
);
