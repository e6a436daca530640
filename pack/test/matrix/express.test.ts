// Express in the matrix: a new app made with Express's own first steps (`npm init`, `npm install
// express`), set up as integrations/express/README.md says, from the packed tarballs, run with
// `node server.js` against the reference service. Server failures only (no browser side).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLines, readmeBlock, runSetup, type Spawned, spawnProcess } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTitles, expectCard, expected, expectFramesAt } from './cards.ts';
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

describe('Express: a new app, set up as the README says', () => {
  const where = scratch('express');
  let svc: TestService;
  let app: Spawned;
  let base: string;
  let dir: string;

  beforeAll(async () => {
    const setup = await runSetup(commandLines(readmeBlock(README, 'sh', 'npm init')), {
      cwd: where.dir,
      tarballs: tarballs(),
    });
    dir = setup.dir;
    expect(setup.badEngines).toEqual([]);
    const server = readmeBlock(README, 'js', '// server.js');
    const anchor = 'setupErrorHandler(app);';
    expect(server).toContain(anchor);
    writeFileSync(join(dir, 'server.js'), server.replace(anchor, `${MORE_ROUTES}${anchor}`));
    svc = await service();
    const port = await freePort();
    app = spawnProcess(process.execPath, ['server.js'], {
      cwd: dir,
      env: { ...appEnv(svc), PORT: String(port) },
    });
    base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100 && !(await fetch(base).catch(() => undefined)); i++)
      await new Promise((r) => setTimeout(r, 100));
  });

  afterAll(async () => {
    app?.kill('SIGKILL');
    await app?.exited;
    await svc?.close();
    where.done();
  });

  it('an unhandled route error: one card for two requests, titled by route pattern', async () => {
    expect((await fetch(`${base}/orders/1001`)).status).toBe(500);
    expect((await fetch(`${base}/orders/1002`)).status).toBe(500);
    await expectCard(
      svc,
      expected('server-error', 'express', {
        title: TITLES.serverError,
        file: 'server.js',
        occurrences: 2,
      }),
    );
  });

  it('its description frames are project-relative', async () => {
    const card = (await svc.cards()).find((c) => c.title === TITLES.serverError)!;
    expectFramesAt(card, 'server.js', dir);
  });

  it('a 4xx the app raises makes no card', async () => {
    expect((await fetch(`${base}/missing/7`)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 2500)); // one drain cadence
    expect(await allTitles(svc)).toEqual([TITLES.serverError]);
  });

  it('an unhandled rejection: one critical card, then Node ends the process (code 1)', async () => {
    await fetch(`${base}/sync`).catch(() => undefined);
    expect(await app.exited).toBe(1);
    await expectCard(
      svc,
      expected('unhandled-rejection', 'express', {
        title: TITLES.rejection,
        file: 'server.js',
        occurrences: 1,
      }),
    );
    expect(await allTitles(svc)).toEqual(Object.values(TITLES).sort());
    expect(app.output()).not.toContain(svc.keys.signingSecret);
  });
});
