// The Hono apps of the matrix (./hono.test.ts): the README's app with the matrix's routes in each
// `create-hono` template's entry, the Worker's configuration, the README's private source maps
// (Workers and Node run a build, whose maps the build uploads), and the command that runs each.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readmeBlock, type Spawned, sh, spawnProcess } from '@svc/testkit';
import { expect } from 'vitest';
import { REPO_ROOT } from './shared.ts';

export const README = join(REPO_ROOT, 'integrations/hono/README.md');
const BIN = join(REPO_ROOT, 'node_modules/.bin');
const DENO = join(REPO_ROOT, 'node_modules/deno/deno');

/** The matrix's routes beside the README's: a 404 the app raises, a promise nobody awaits. */
export const ROUTES = `app.get('/', (c) => c.text('Hello Hono!'));
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
export const WORKER_ROUTES = `app.get('/receipts/:id', (c) => {
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

export interface Runtime {
  name: 'workers' | 'bun' | 'deno' | 'node';
  template: string;
  entry: string;
  /** `file_name` of the cards: the entry (Workers and Node: through the uploaded maps). */
  file: string;
  /** Workers and Node: the folder the build deploys, where the README's build leaves no map. */
  deployed?: string;
  /** The template's own last line(s), which serve the app; the matrix's replacement (a port). */
  serve?: [RegExp, string];
}

export const RUNTIMES: Runtime[] = [
  {
    name: 'workers',
    template: 'cloudflare-workers',
    entry: 'src/index.ts',
    file: 'src/index.ts',
    deployed: 'dist',
  },
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
    file: 'src/index.ts',
    deployed: 'dist',
    serve: [/port: 3000/, 'port: Number(process.env.PORT), hostname: "127.0.0.1"'],
  },
];

/**
 * The README's app with the matrix's routes in the template's entry: the template's own imports
 * and its serving part (what follows its one route: `export default app`, `Deno.serve`, `serve`)
 * kept, the port set for the test.
 */
export function writeApp(dir: string, runtime: Runtime): void {
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

/** Workers: the template's wrangler.jsonc with the Durable Object, and the README's .dev.vars. */
export async function configureWorker(dir: string, appVariables: NodeJS.ProcessEnv): Promise<void> {
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
  // The README's .dev.vars: the bindings wrangler dev gives the Worker (the release: the deploy's).
  const names = readmeBlock(README, 'ini', 'SERVICE_URL').match(/^[A-Z_]+(?==)/gm)!;
  const vars = { ...appVariables, SERVICE_ENVIRONMENT: 'production' } as Record<string, string>;
  const lines = [...names, 'SERVICE_ENVIRONMENT'].map((n) => `${n}=${vars[n]}`);
  writeFileSync(join(dir, '.dev.vars'), `${lines.join('\n')}\n`);
}

/** A `package.json` fragment of the README (`"build": "...",` lines) as an object. */
function scriptsBlock(marker: string): Record<string, string> {
  return JSON.parse(`{${readmeBlock(README, 'json', marker)}}`);
}

/**
 * The README's private source maps: Workers get its `build` and `deploy` scripts; Node its
 * `compilerOptions` in the template's tsconfig and its `build` script.
 */
export function useSourceMaps(dir: string, runtime: Runtime): void {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (runtime.name === 'workers') Object.assign(manifest.scripts, scriptsBlock('"deploy": '));
  if (runtime.name === 'node') {
    Object.assign(manifest.scripts, scriptsBlock('"build": "tsc'));
    const options = /add `("sourceMap"[^`]*)` to\s+`compilerOptions`/.exec(
      readFileSync(README, 'utf8'),
    );
    expect(options).not.toBeNull();
    const tsconfig = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8'));
    Object.assign(tsconfig.compilerOptions, JSON.parse(`{${options![1]}}`));
    writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Where the matrix has wrangler write the file `npm run deploy` would upload (see `startWorker`). */
const DEPLOYED_WORKER = '.wrangler/tmp/deploy';

/**
 * Workers: the README's `npm run deploy`, dry (`--dry-run --outdir`: wrangler writes the very file
 * it would upload), then that file served by `wrangler dev --no-bundle` with the deploy's own
 * flags (the release binding). A deployed Worker names its bundle `index.js`; wrangler dev names
 * it by its path, which the SDK reads as the deployed name under `.wrangler/tmp/<dir>/` (every
 * bundle wrangler dev writes is there), so the frames the service maps are the deployed ones.
 */
async function startWorker(dir: string, env: NodeJS.ProcessEnv, build: string[]): Promise<Spawned> {
  const deploy = scriptsBlock('"deploy": ').deploy!;
  const flags = /^npm run build && wrangler deploy --no-bundle dist\/index\.js( .*)?$/.exec(deploy);
  expect(flags, 'the deploy is the built file, unbundled again').not.toBeNull();
  const dry = ['run', 'deploy', '--', '--dry-run', '--outdir', DEPLOYED_WORKER];
  build.push(await sh('npm', dry, dir, env));
  // What runs is byte for byte the file whose map was uploaded (the build's, its map comment gone).
  const served = join(dir, DEPLOYED_WORKER, 'index.js');
  expect(readFileSync(served).equals(readFileSync(join(dir, 'dist/index.js')))).toBe(true);
  const port = env.PORT!;
  const dev = `wrangler dev --no-bundle ${DEPLOYED_WORKER}/index.js${flags![1] ?? ''}`;
  const server = spawnProcess('sh', ['-c', `npx ${dev} --port ${port} --ip 127.0.0.1`], {
    cwd: dir,
    env,
  });
  await server.waitFor(/Ready on http/, 120_000);
  return server;
}

/**
 * The command that runs the app, as its template's README says (ports set for the test); Workers
 * and Node after the README's build, whose output is pushed onto `build`.
 */
export async function start(
  runtime: Runtime,
  dir: string,
  env: NodeJS.ProcessEnv,
  build: string[],
): Promise<Spawned> {
  if (runtime.name === 'workers') return startWorker(dir, env, build);
  if (runtime.name === 'node') build.push(await sh('npm', ['run', 'build'], dir, env));
  return serve(runtime, dir, env);
}

/** Bun, Deno and Node: a server of the app as it is (Node: of its last build). */
export function serve(runtime: Runtime, dir: string, env: NodeJS.ProcessEnv): Spawned {
  if (runtime.name === 'node') return spawnProcess('node', ['dist/index.js'], { cwd: dir, env });
  if (runtime.name === 'bun')
    return spawnProcess(join(BIN, 'bun'), ['run', 'src/index.ts'], { cwd: dir, env });
  // The binary itself, as a user runs it (npm's `deno` is a Node script that spawns it).
  return spawnProcess(DENO, ['run', '--allow-net', '--allow-env', 'main.ts'], { cwd: dir, env });
}

/** The 1-based line of the entry that holds `text` (the throw site a card's frame names). */
export function lineOf(dir: string, runtime: Runtime, text: string): number {
  const lines = readFileSync(join(dir, runtime.entry), 'utf8').split('\n');
  const at = lines.findIndex((line) => line.includes(text));
  expect(at).toBeGreaterThanOrEqual(0);
  return at + 1;
}
