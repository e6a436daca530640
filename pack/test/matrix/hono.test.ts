// Hono in the matrix: the apps `create-hono` makes for Cloudflare Workers, Bun, Deno and Node (its
// templates from ./hono-starter.ts, through the real create-hono with `--offline`), set up as
// integrations/hono/README.md says, from the packed tarballs, against the reference service.
// Workers and Node with the README's private source maps: Workers run the file the README's `npm
// run deploy` would upload (written by its `--dry-run`) in workerd under `wrangler dev --no-bundle`,
// Node the README's `npm run build` (tsc, then the upload) with `node dist/index.js`; Bun and Deno
// their source, from their npm packages. Every command on Node 24 (wrangler needs 22+). Server
// failures only (no browser side). The app's files and commands: ./hono-app.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  commandLines,
  nodeEnv,
  readmeBlock,
  runSetup,
  type Spawned,
  sh,
  testNode,
  userEnv,
} from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCard, expected, expectFramesAt, frames } from './cards.ts';
import { exitScenarios, type Started } from './exit.ts';
import {
  configureWorker,
  lineOf,
  README,
  RUNTIMES,
  type Runtime,
  serve,
  start,
  useSourceMaps,
  writeApp,
} from './hono-app.ts';
import { seedCreateHono } from './hono-starter.ts';
import {
  clientError,
  endPrepared,
  onlyThese,
  type PreparedApp,
  type RunningApp,
  serverCrash,
  serverError,
} from './scenarios.ts';
import { appEnv, freePort, scratch, service, type TestService, tarballs } from './shared.ts';
import { uploadedMaps } from './source-maps.ts';

const TITLES = {
  serverError: 'Error: Order <n> could not be loaded (GET /orders/:id)',
  rejection: 'Error: Inventory sync failed (unhandled rejection)',
};
const WORKER_TITLES = {
  waitUntil: 'Error: Receipt <n> could not be sent (waitUntil of GET /receipts/:id)',
  objectCall: 'RangeError: Counter <n> overflowed (GET /counters/:id)',
  alarm: 'Error: Counter <n> alarm failed (Counter alarm)',
  objectTask: 'Error: Compaction of counter <n> failed (Counter waitUntil)',
  objectReport: 'Counter reset by hand',
};

/**
 * The app create-hono makes for `runtime`, set up as the README says, against its own reference
 * service, started and answering. The four runtimes are prepared side by side (mostly npm and
 * wrangler starting), each file's scenarios then run one runtime after another.
 */
async function prepare(runtime: Runtime, state: PreparedApp): Promise<void> {
  const { where, running } = state;
  const node24 = testNode(24);
  const started = Date.now();
  const base = userEnv(seedCreateHono(where.dir));
  const env = node24 ? nodeEnv(node24, base) : base;
  const commands = commandLines(readmeBlock(README, 'sh', 'create-hono@'));
  const setup = await runSetup(
    commands.map((command) => command.replace('cloudflare-workers', runtime.template)),
    { cwd: where.dir, tarballs: tarballs(), env, generatorFlags: { 'create-hono': ['--offline'] } },
  );
  running.dir = setup.dir;
  expect(setup.badEngines).toEqual([]);
  if (runtime.name === 'deno') {
    // JSR is not reachable here: the template's hono, from npm (the same package).
    const config = join(running.dir, 'deno.json');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(/"jsr:@hono\/hono@[^"]*"/, '"npm:hono@4.13.19"'),
    );
    await sh('npm', ['install', '--prefer-offline', 'hono@4.13.19'], running.dir, env);
  }
  writeApp(running.dir, runtime);
  if (runtime.deployed) useSourceMaps(running.dir, runtime);
  running.svc = await service();
  const port = String(await freePort());
  const appVariables = { ...appEnv(running.svc), PORT: port };
  if (runtime.name === 'workers') await configureWorker(running.dir, appVariables);
  state.app = await start(
    runtime,
    running.dir,
    node24 ? nodeEnv(node24, appVariables) : appVariables,
    built.get(runtime.name)!,
  );
  running.server = state.app;
  running.base = `http://127.0.0.1:${port}`;
  await answering(runtime, state.app, running.base);
  console.log(`[hono] ${runtime.name}: ready in ${Date.now() - started} ms`);
}

/** Resolves once `server` answers at `base`; fails with its output if it exits or never does. */
async function answering(runtime: Runtime, server: Spawned, base: string): Promise<void> {
  let exited = false;
  void server.exited.then(() => (exited = true));
  for (let i = 0; i < 300 && !exited; i++) {
    if (await fetch(base).catch(() => undefined)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  server.kill('SIGKILL');
  throw new Error(`${runtime.name}: no answer at ${base} (exited: ${exited}):\n${server.output()}`);
}

/** Bun, Deno, Node: a new server of the prepared app against `serviceUrl` with `svc`'s keys. */
async function startAgainst(
  runtime: Runtime,
  dir: string,
  serviceUrl: string,
  svc: TestService,
): Promise<Started> {
  const port = String(await freePort());
  const variables = { ...appEnv(svc), SERVICE_URL: serviceUrl, PORT: port };
  const node24 = testNode(24);
  const server = serve(runtime, dir, node24 ? nodeEnv(node24, variables) : variables);
  const base = `http://127.0.0.1:${port}`;
  await answering(runtime, server, base);
  return { server, base };
}

const prepared = new Map<Runtime['name'], { state: PreparedApp; ready: Promise<void> }>();
/** What each runtime's build printed (Workers and Node: the upload's one line). */
const built = new Map<Runtime['name'], string[]>(RUNTIMES.map((r) => [r.name, []]));

beforeAll(() => {
  for (const runtime of RUNTIMES) {
    const state: PreparedApp = {
      where: scratch(`hono-${runtime.name}`),
      running: { pages: [] } as unknown as RunningApp,
    };
    const ready = prepare(runtime, state);
    ready.catch(() => undefined); // awaited, and failed, by the runtime's own describe
    prepared.set(runtime.name, { state, ready });
  }
});

// Also what a filtered run never reached (its describe's hooks do not run): each once prepared.
afterAll(async () => {
  await Promise.all(
    [...prepared.values()].map(async ({ state, ready }) => {
      await ready.catch(() => undefined);
      await endPrepared(state);
    }),
  );
});

for (const runtime of RUNTIMES) {
  describe(`Hono on ${runtime.name}: the app create-hono makes (${runtime.template})`, () => {
    const running = {} as RunningApp;
    let app: Spawned;

    beforeAll(async () => {
      const { state, ready } = prepared.get(runtime.name)!;
      await ready;
      Object.assign(running, state.running);
      app = state.app!;
    });

    afterAll(() => endPrepared(prepared.get(runtime.name)!.state));

    serverError(() => running, 'hono', {
      paths: ['/orders/1001', '/orders/1002'],
      title: TITLES.serverError,
      file: runtime.file,
    });
    clientError(() => running, { path: '/missing/7', titlesBefore: [TITLES.serverError] });

    if (runtime.deployed)
      uploadedMaps(() => running, {
        output: () => built.get(runtime.name)!.join('\n'),
        deployed: () => join(running.dir, runtime.deployed!),
        chunk: runtime.name === 'node' ? /^dist\/index\.js$/ : /^index\.js$/,
        debugIds: false,
      });

    if (runtime.name === 'workers') {
      it('work handed to waitUntil fails: one card, delivered inside that work', async () => {
        expect((await fetch(`${running.base}/receipts/42`)).status).toBe(200);
        const card = await expectCard(
          running.svc,
          expected('background-error', 'hono', {
            title: WORKER_TITLES.waitUntil,
            file: runtime.file,
            occurrences: 1,
            tags: ['method:GET'],
          }),
        );
        expectFramesAt(card, runtime.file, running.dir);
      });

      it("a Durable Object's method throws to the route: one card, the route's", async () => {
        expect((await fetch(`${running.base}/counters/a`)).status).toBe(500);
        await expectCard(
          running.svc,
          expected('server-error', 'hono', {
            title: WORKER_TITLES.objectCall,
            file: runtime.file,
            occurrences: 1,
          }),
        );
      });

      it('a Durable Object reports, and hands failing work to its waitUntil: one card each', async () => {
        expect(await (await fetch(`${running.base}/counters/c/reset`)).text()).toBe('reset');
        await expectCard(
          running.svc,
          expected('background-error', 'hono', {
            title: WORKER_TITLES.objectTask,
            file: runtime.file,
            occurrences: 1,
          }),
        );
        const [report] = (await running.svc.cards()).filter(
          (card) => card.title === WORKER_TITLES.objectReport,
        );
        expect(report).toMatchObject({ severity: 'minor', priority: 'low', occurrence_count: 1 });
      });

      it("a Durable Object's alarm fails once: one card with one occurrence", async () => {
        expect((await fetch(`${running.base}/alarms/b`)).status).toBe(200);
        await expectCard(
          running.svc,
          expected('background-error', 'hono', {
            title: WORKER_TITLES.alarm,
            file: runtime.file,
            occurrences: 1,
          }),
        );
      });
    }

    // Last of the server's scenarios: Bun, Deno and Node end the process (their default);
    // workerd logs the rejection and goes on serving.
    serverCrash(() => running, 'hono', {
      kind: 'unhandled-rejection',
      path: '/sync',
      title: TITLES.rejection,
      file: runtime.file,
      outcome: runtime.name === 'workers' ? 'survives' : 'exits',
    });

    it("the rejection's card names its function and line in the entry", async () => {
      const card = (await running.svc.cards()).find((c) => c.title === TITLES.rejection)!;
      const line = lineOf(running.dir, runtime, "throw new Error('Inventory sync failed')");
      expect(card.file_name).toBe(runtime.file);
      expect(frames(card)[0]).toMatch(
        new RegExp(`^ {4}at syncInventory \\(${runtime.file}:${line}:\\d+\\)$`),
      );
    });

    onlyThese(
      () => running,
      [
        ...Object.values(TITLES),
        ...(runtime.name === 'workers' ? Object.values(WORKER_TITLES) : []),
      ],
      () => app.output(),
    );

    if (runtime.name === 'workers')
      it('workerd cancelled no waitUntil task (each flush ended within its budget)', () => {
        expect(app.output()).toMatch(/Ready on http/);
        expect(app.output()).not.toMatch(/waitUntil[^\n]*cancel|cancel[^\n]*waitUntil/i);
      });
    else
      exitScenarios(
        `hono on ${runtime.name}`,
        (url, svc) => startAgainst(runtime, running.dir, url, svc),
        { path: '/orders/1001', title: TITLES.serverError },
        'SIGTERM', // no listener of the app's own: the runtime's default, killed by the signal
      );
  });
}
