// Express in the matrix: a new app made with Express's own first steps (`npm init`, `npm install
// express`), set up as integrations/express/README.md says, from the packed tarballs, run with
// `node server.js` against the reference service. Server failures only (no browser side).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLines, readmeBlock, runSetup, type Spawned, spawnProcess } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { exitScenarios } from './exit.ts';
import { clientError, onlyThese, type RunningApp, serverCrash, serverError } from './scenarios.ts';
import {
  appEnv,
  freePort,
  REPO_ROOT,
  scratch,
  service,
  type TestService,
  tarballs,
} from './shared.ts';

const README = join(REPO_ROOT, 'integrations/express/README.md');
const TITLES = {
  serverError: 'Error: Order <n> could not be loaded (GET /orders/:id)',
  rejection: 'Error: Inventory sync failed (unhandled rejection)',
};

/** The app's own routes beside the README's: a 404 the app raises, and a promise nobody awaits. */
const MORE_ROUTES = `app.get('/missing/:id', (req, res, next) => {
  next(Object.assign(new Error(\`Order \${req.params.id} not found\`), { status: 404 }));
});
app.get('/sync', (req, res) => {
  syncInventory(); // not awaited: its rejection is unhandled
  res.send('sync started');
});
async function syncInventory() {
  throw new Error('Inventory sync failed');
}
`;

/** `node server.js` (the README's run) on a free port, against `serviceUrl` with `svc`'s keys. */
async function startApp(dir: string, serviceUrl: string, svc: TestService) {
  const port = await freePort();
  const server = spawnProcess(process.execPath, ['server.js'], {
    cwd: dir,
    env: { ...appEnv(svc), SERVICE_URL: serviceUrl, PORT: String(port) },
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100 && !(await fetch(base).catch(() => undefined)); i++)
    await new Promise((r) => setTimeout(r, 100));
  return { server, base };
}

describe('Express: a new app, set up as the README says', () => {
  const where = scratch('express');
  const running = { pages: [] } as unknown as RunningApp;
  let app: Spawned;

  beforeAll(async () => {
    const setup = await runSetup(commandLines(readmeBlock(README, 'sh', 'npm init')), {
      cwd: where.dir,
      tarballs: tarballs(),
    });
    running.dir = setup.dir;
    expect(setup.badEngines).toEqual([]);
    const server = readmeBlock(README, 'js', '// server.js');
    const anchor = 'setupErrorHandler(app);';
    expect(server).toContain(anchor);
    writeFileSync(
      join(running.dir, 'server.js'),
      server.replace(anchor, `${MORE_ROUTES}${anchor}`),
    );
    running.svc = await service();
    const started = await startApp(running.dir, running.svc.url, running.svc);
    app = started.server;
    running.server = app;
    running.base = started.base;
  });

  afterAll(async () => {
    app?.kill('SIGKILL');
    await app?.exited;
    await running.svc?.close();
    where.done();
  });

  serverError(() => running, 'express', {
    paths: ['/orders/1001', '/orders/1002'],
    title: TITLES.serverError,
    file: 'server.js',
  });
  clientError(() => running, { path: '/missing/7', titlesBefore: [TITLES.serverError] });

  // Last of the server's scenarios: Node's default ends the process.
  serverCrash(() => running, 'express', {
    kind: 'unhandled-rejection',
    path: '/sync',
    title: TITLES.rejection,
    file: 'server.js',
    outcome: 'exits',
  });

  onlyThese(
    () => running,
    Object.values(TITLES),
    () => app.output(),
  );

  exitScenarios('express', (url, svc) => startApp(running.dir, url, svc), {
    path: '/orders/1001',
    title: TITLES.serverError,
  });
});
