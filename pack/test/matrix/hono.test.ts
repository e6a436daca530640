// Hono in the matrix: the apps `create-hono` makes for Cloudflare Workers, Bun, Deno and Node (its
// templates from ./hono-starter.ts, through the real create-hono with `--offline`), set up as
// integrations/hono/README.md says, from the packed tarballs, against the reference service.
// Workers run in workerd through the template's own `npm run dev` (wrangler dev); Bun and Deno
// from their npm packages; Node on the template's `npm run build` and `node dist/index.js`; every
// command on Node 24 (wrangler needs 22+). Server failures only (no browser side).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  commandLines,
  nodeEnv,
  readmeBlock,
  runSetup,
  type Spawned,
  sh,
  spawnProcess,
  testNode,
  userEnv,
} from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCard, expected, expectFramesAt } from './cards.ts';
import { exitScenarios, type Started } from './exit.ts';
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
import {
  appEnv,
  freePort,
  REPO_ROOT,
  scratch,
  service,
  type TestService,
  tarballs,
} from './shared.ts';

const README = join(REPO_ROOT, 'integrations/hono/README.md');
const BIN = join(REPO_ROOT, 'node_modules/.bin');
const DENO = join(REPO_ROOT, 'node_modules/deno/deno');
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

/** The matrix's routes beside the README's: a 404 the app raises, a promise nobody awaits. */
const ROUTES = `app.get('/', (c) => c.text('Hello Hono!'));
app.get('/missing/:id', () => {
  throw new HTTPException(404, { message: 'Order not found' });
});
app.get('/sync', (c) => {
  syncInventory(); // not awaited: its rejection is unhandled
  return c.text('sync started');
});
async function syncInventory() {
  throw new Error('Inventory sync failed');
}
`;

/** Workers only: work handed to waitUntil, and a Durable Object (a call, an alarm). */
const WORKER_ROUTES = `app.get('/receipts/:id', (c) => {
  c.executionCtx.waitUntil(sendReceipt(c.req.param('id')));
  return c.text('receipt queued');
});
async function sendReceipt(id: string) {
  await new Promise((resolve) => setTimeout(resolve, 20));
  throw new Error(\`Receipt \${id} could not be sent\`);
}
app.get('/counters/:id', async (c) => {
  const counter = (c.env as any).COUNTER.getByName(c.req.param('id'));
  return c.text(String(await counter.increment()));
});
app.get('/counters/:id/reset', async (c) => {
  return c.text(await (c.env as any).COUNTER.getByName(c.req.param('id')).reset());
});
app.get('/alarms/:id', async (c) => {
  await (c.env as any).COUNTER.getByName(c.req.param('id')).arm();
  return c.text('armed');
});
export const Counter = instrumentDurableObject(
  class Counter extends DurableObject {
    async increment(): Promise<number> {
      throw new RangeError(\`Counter \${Date.now()} overflowed\`);
    }
    async arm() {
      await this.ctx.storage.setAlarm(Date.now() + 50);
    }
    async reset(): Promise<string> {
      getShared()?.minorLow('Counter reset by hand', 'The counter went back to zero.');
      this.ctx.waitUntil(this.compact());
      return 'reset';
    }
    async compact() {
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error(\`Compaction of counter \${Date.now()} failed\`);
    }
    async alarm() {
      // Fails once; the platform's retry succeeds (one occurrence on the card).
      if (await this.ctx.storage.get('failed')) return;
      await this.ctx.storage.put('failed', true);
      throw new Error(\`Counter \${Date.now()} alarm failed\`);
    }
  },
);
`;

const WORKER_CONFIG = `"durable_objects": { "bindings": [{ "name": "COUNTER", "class_name": "Counter" }] },
  "migrations": [{ "tag": "v1", "new_sqlite_classes": ["Counter"] }],
  `;

interface Runtime {
  name: 'workers' | 'bun' | 'deno' | 'node';
  template: string;
  entry: string;
  /** `file_name` of the cards: the source, or the bundle where workerd runs one. */
  file: string;
  /** The template's own last line(s), which serve the app; the matrix's replacement (a port). */
  serve?: [RegExp, string];
}

const RUNTIMES: Runtime[] = [
  { name: 'workers', template: 'cloudflare-workers', entry: 'src/index.ts', file: 'index.js' },
  { name: 'bun', template: 'bun', entry: 'src/index.ts', file: 'src/index.ts' },
  {
    name: 'deno',
    template: 'deno',
    entry: 'main.ts',
    file: 'main.ts',
    serve: [
      /Deno\.serve\(app\.fetch\)/,
      "Deno.serve({ hostname: '127.0.0.1', port: Number(Deno.env.get('PORT')) }, app.fetch)",
    ],
  },
  {
    name: 'node',
    template: 'nodejs',
    entry: 'src/index.ts',
    file: 'dist/index.js',
    serve: [/port: 3000/, 'port: Number(process.env.PORT), hostname: "127.0.0.1"'],
  },
];

/**
 * The README's app with the matrix's routes in the template's entry: the template's own imports
 * and its serving part (what follows its one route: `export default app`, `Deno.serve`, `serve`)
 * kept, the port set for the test.
 */
function writeApp(dir: string, runtime: Runtime): void {
  const readme = readmeBlock(README, 'ts', '// src/index.ts\n');
  const anchor = 'export default app;';
  expect(readme).toContain(anchor);
  const template = readFileSync(join(dir, runtime.entry), 'utf8');
  const route = template.indexOf("app.get('/'");
  expect(route).toBeGreaterThan(0);
  const serving = template.slice(template.indexOf('})', route) + 2).trim();
  const worker = runtime.name === 'workers';
  const imports = [
    ...template.split('\n').filter((line) => /^import /.test(line) && !/from 'hono'/.test(line)),
    "import { HTTPException } from 'hono/http-exception';",
    ...(worker
      ? [
          "import { DurableObject } from 'cloudflare:workers';",
          "import { getShared, instrumentDurableObject } from '@svc/hono';",
        ]
      : []),
  ];
  const routes = `${ROUTES}${worker ? WORKER_ROUTES : ''}`;
  const served = runtime.serve ? serving.replace(...runtime.serve) : serving;
  expect(serving).not.toBe('');
  if (runtime.serve) expect(served).not.toBe(serving);
  const app = `${imports.join('\n')}\n${readme.replace(anchor, `${routes}\n${served}`)}`;
  writeFileSync(join(dir, runtime.entry), app);
}

/** The command that runs the app, as its template's README says (ports set for the test). */
async function start(runtime: Runtime, dir: string, env: NodeJS.ProcessEnv): Promise<Spawned> {
  const port = env.PORT!;
  if (runtime.name === 'workers') {
    const dev = ['run', 'dev', '--', '--port', port, '--ip', '127.0.0.1'];
    const server = spawnProcess('npm', dev, { cwd: dir, env });
    await server.waitFor(/Ready on http/, 120_000);
    return server;
  }
  if (runtime.name === 'node') return spawnProcess('node', ['dist/index.js'], { cwd: dir, env });
  if (runtime.name === 'bun')
    return spawnProcess(join(BIN, 'bun'), ['run', 'src/index.ts'], { cwd: dir, env });
  // The binary itself, as a user runs it (npm's `deno` is a Node script that spawns it).
  return spawnProcess(DENO, ['run', '--allow-net', '--allow-env', 'main.ts'], { cwd: dir, env });
}

/** A new server of the app against `serviceUrl` with `svc`'s keys, on a free port, answering. */
async function startAgainst(
  runtime: Runtime,
  dir: string,
  serviceUrl: string,
  svc: TestService,
): Promise<Started> {
  const port = String(await freePort());
  const variables = { ...appEnv(svc), SERVICE_URL: serviceUrl, PORT: port };
  if (runtime.name === 'workers') await configureWorker(dir, variables);
  const node24 = testNode(24);
  const server = await start(runtime, dir, node24 ? nodeEnv(node24, variables) : variables);
  const base = `http://127.0.0.1:${port}`;
  let exited = false;
  void server.exited.then(() => (exited = true));
  for (let i = 0; i < 300 && !exited; i++) {
    if (await fetch(base).catch(() => undefined)) return { server, base };
    await new Promise((r) => setTimeout(r, 100));
  }
  server.kill('SIGKILL');
  throw new Error(`${runtime.name}: no answer at ${base} (exited: ${exited}):\n${server.output()}`);
}

/** Workers: the template's wrangler.jsonc with the Durable Object, and the README's .dev.vars. */
async function configureWorker(dir: string, appVariables: NodeJS.ProcessEnv): Promise<void> {
  const wrangler = join(dir, 'wrangler.jsonc');
  // create-hono dates the Worker today; the workerd that wrangler installs may be a few days
  // older and refuse it (as it would for a user): the newest date it supports.
  const workerd = createRequire(join(dir, 'package.json'))('workerd/package.json');
  const { compatibilityDate } = await import(
    pathToFileURL(join(dir, 'node_modules/workerd', workerd.main)).href
  );
  const config = readFileSync(wrangler, 'utf8')
    .replace(/"compatibility_date": "([\d-]+)"/, (line, date: string) =>
      date > compatibilityDate ? `"compatibility_date": "${compatibilityDate}"` : line,
    )
    .replace(/"compatibility_date"/, `${WORKER_CONFIG}"compatibility_date"`);
  writeFileSync(wrangler, config);
  // The README's .dev.vars: the bindings wrangler dev gives the Worker.
  const names = readmeBlock(README, 'ini', 'SERVICE_URL').match(/^[A-Z_]+(?==)/gm)!;
  const vars = { ...appVariables, SERVICE_ENVIRONMENT: 'production' } as Record<string, string>;
  const lines = [...names, 'SERVICE_ENVIRONMENT', 'SERVICE_RELEASE'].map((n) => `${n}=${vars[n]}`);
  writeFileSync(join(dir, '.dev.vars'), `${lines.join('\n')}\n`);
}

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
  if (runtime.name === 'node') await sh('npm', ['run', 'build'], running.dir, env);
  running.svc = await service();
  const server = await startAgainst(runtime, running.dir, running.svc.url, running.svc);
  state.app = server.server;
  running.server = state.app;
  running.base = server.base;
  console.log(`[hono] ${runtime.name}: ready in ${Date.now() - started} ms`);
}

const prepared = new Map<Runtime['name'], { state: PreparedApp; ready: Promise<void> }>();

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
