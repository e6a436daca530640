// The Next app of the matrix: the app `create-next-app@16.4.3` makes (its own config: typed
// NextConfig, cacheComponents and partialPrefetching on), set up as integrations/next/README.md
// says from the packed tarballs, plus the app's own failing code: the matrix's route handler and
// React page (shared with Vite), and ./next-app (server component, route handler, server action,
// client component, the crashes of the server process). Built and started by next.test.ts.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  blockVariables,
  commandLines,
  readmeBlock,
  runSetup,
  sh,
  type Spawned,
  spawnProcess,
} from '@svc/testkit';
import { expect } from 'vitest';
import { reactScenarios } from './react-app.ts';
import { appEnv, freePort, REPO_ROOT, type TestService, tarballs } from './shared.ts';

export const README = join(REPO_ROOT, 'integrations/next/README.md');
export const ROUTE_FILE = 'app/api/orders/[id]/route.ts';
const NEXT_APP = fileURLToPath(new URL('./next-app/', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./next-preload.mjs', import.meta.url));

/** The matrix's failing route handler, and a client page with one failing button per kind. */
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
  const block = readmeBlock(README, 'ts', 'withSvc(nextConfig').split('\n');
  const importLine = block.find((line) => line.startsWith('import '))!;
  const exportLine = block.find((line) => line.startsWith('export default withSvc('))!;
  const lines = readFileSync(file, 'utf8').split('\n');
  const exported = lines.indexOf('export default nextConfig;');
  expect(exported).toBeGreaterThan(-1);
  lines[exported] = exportLine;
  lines.splice(lines.findLastIndex((line) => line.startsWith('import ')) + 1, 0, importLine);
  writeFileSync(file, lines.join('\n'));
}

/** Runs the README's setup in `cwd` (create-next-app, install, `svc-next init`); the app's dir. */
export async function createNextApp(cwd: string): Promise<string> {
  const setup = await runSetup(commandLines(readmeBlock(README, 'sh', 'create-next-app@')), {
    cwd,
    tarballs: tarballs(),
    generatorFlags: { 'create-next-app': ['--skip-install', '--disable-git', '--use-npm'] },
  });
  expect(setup.badEngines).toEqual([]);
  const dir = setup.dir;
  addConfigLines(join(dir, 'next.config.ts'));
  for (const [path, text] of Object.entries(APP_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  cpSync(NEXT_APP, dir, { recursive: true });
  // The README's own app/**/error.tsx boundary, for the scenarios page and the checkout.
  const boundary = readmeBlock(README, 'tsx', 'useSvcErrorReport(error)');
  for (const page of ['scenarios', 'checkout'])
    writeFileSync(join(dir, `app/${page}/error.tsx`), boundary);
  return dir;
}

/**
 * The variables `next build` and `next start` get: the README's (checked against its run block)
 * and the environment and release every app of the matrix is given.
 */
export function nextEnv(svc: TestService): NodeJS.ProcessEnv {
  const env = appEnv(svc, 'next');
  const run = readmeBlock(README, 'sh', 'SERVICE_SIGNING_SECRET=');
  const named = blockVariables(run);
  expect(named).toEqual([
    'NEXT_PUBLIC_SERVICE_API_KEY',
    'SERVICE_KEY_ID',
    'SERVICE_SIGNING_SECRET',
    'SERVICE_URL',
  ]);
  for (const name of named) expect(env[name]).toBeTruthy();
  return env;
}

/** `npm run build -- --<bundler>` (the README's build); its output. */
export async function buildNextApp(
  dir: string,
  bundler: 'turbopack' | 'webpack',
  env: NodeJS.ProcessEnv,
): Promise<string> {
  return sh('npm', ['run', 'build', '--', `--${bundler}`], dir, env);
}

/**
 * `npm start` (the README's) on a free port, with the preload that turns on @svc/next's debug
 * lines; `withoutCrashHandlers` starts the control server (Next's own behaviour on a crash).
 */
export async function startNextApp(
  dir: string,
  env: NodeJS.ProcessEnv,
  options: { withoutCrashHandlers?: boolean } = {},
): Promise<{ server: Spawned; base: string }> {
  const port = await freePort();
  const server = spawnProcess('npm', ['start', '--', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: dir,
    env: {
      ...env,
      NODE_OPTIONS: `--import=${PRELOAD}`,
      ...(options.withoutCrashHandlers ? { SVC_TEST_WITHOUT_CRASH_HANDLERS: '1' } : {}),
    },
  });
  await server.waitFor(/Ready in/, 120_000);
  return { server, base: `http://127.0.0.1:${port}` };
}
