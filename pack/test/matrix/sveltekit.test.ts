// SvelteKit in the matrix: the app `sv create` makes today (`minimal`, TypeScript, the Node
// adapter), set up as integrations/sveltekit/README.md says, from the packed tarballs: once with
// SvelteKit 2 as the template asks for it, once moved to 3.2 by the README's `npm pkg set` line.
// Built with the template's `npm run build`, run with `node build`, browser in Chromium, against
// the reference service; every command on Node 24 (SvelteKit 3 needs 22.17+).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { exitScenarios } from './exit.ts';
import {
  browserFailures,
  clientError,
  onlyThese,
  endPrepared,
  type PreparedApp,
  type RunningApp,
  serverCrash,
  serverError,
} from './scenarios.ts';
import { appEnv, closeBrowser, REPO_ROOT, scratch, service, tarballs } from './shared.ts';
import type { TestService } from './shared.ts';

const README = join(REPO_ROOT, 'integrations/sveltekit/README.md');
const TITLES = {
  serverError: 'Error: Order <n> could not be loaded (GET /orders/[id])',
  rejection: 'Error: Inventory sync failed (unhandled rejection)',
  browserError: 'TypeError: Cart <n> is empty (browser)',
  browserRejection: 'Error: Sync <n> failed (unhandled rejection in the browser)',
  boundary: 'RangeError: Widget size <n> out of range (Svelte component)',
};

/** The app's own code: failing endpoints, and a page with one failing button per kind. */
const APP_FILES: Record<string, string> = {
  'src/routes/orders/[id]/+server.ts': `import { error } from '@sveltejs/kit';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = ({ params }) => {
  if (params.id === 'missing') error(404, 'Order not found');
  throw new Error(\`Order \${params.id} could not be loaded\`);
};
`,
  'src/routes/sync/+server.ts': `async function syncInventory() {
  throw new Error('Inventory sync failed');
}

export function GET() {
  syncInventory(); // not awaited: its rejection is unhandled
  return new Response('sync started');
}
`,
  'src/lib/Widget.svelte': `<script lang="ts">
  let { size }: { size: number } = $props();
  function checked(n: number): number {
    if (n > 3) throw new RangeError(\`Widget size \${n} out of range\`);
    return n;
  }
</script>

<p>Widget of size {checked(size)}</p>
`,
  'src/routes/+page.svelte': `<script lang="ts">
  import { reportBoundaryError } from '@svc/sveltekit/client';
  import Widget from '$lib/Widget.svelte';

  let size = $state(1);
  function checkOut() {
    setTimeout(() => {
      throw new TypeError(\`Cart \${Date.now()} is empty\`);
    });
  }
  async function syncNow() {
    throw new Error(\`Sync \${Date.now()} failed\`);
  }
  function startSync() {
    void syncNow(); // not awaited: an unhandled rejection
  }
</script>

<main>
  <button id="browser-error" type="button" onclick={checkOut}>Check out</button>
  <button id="browser-rejection" type="button" onclick={startSync}>Sync</button>
  <button id="error-boundary" type="button" onclick={() => (size += 10)}>Grow</button>
  <svelte:boundary onerror={reportBoundaryError}>
    <Widget {size} />
    {#snippet failed()}
      <p>Something went wrong; it has been reported.</p>
    {/snippet}
  </svelte:boundary>
</main>
`,
};

/** The README's files, with the one line it says SvelteKit 2 or 3 needs beside `adapter`. */
function writeReadmeFiles(dir: string, major: 2 | 3): void {
  const anchor = 'adapter: adapter(),';
  const beside =
    major === 2
      ? 'experimental: { instrumentation: { server: true } }'
      : "alias: { $lib: 'src/lib' }";
  expect(readFileSync(README, 'utf8')).toContain(`\`${beside}\``);
  const config = readmeBlock(README, 'ts', '// vite.config.ts\n');
  expect(config).toContain(anchor);
  writeFileSync(join(dir, 'vite.config.ts'), config.replace(anchor, `${anchor} ${beside},`));
  for (const file of [
    'src/instrumentation.server.ts',
    'src/hooks.server.ts',
    'src/hooks.client.ts',
  ])
    writeFileSync(join(dir, file), readmeBlock(README, 'ts', `// ${file}\n`));
}

const node24 = testNode(24);
const onNode24 = (env: NodeJS.ProcessEnv) => (node24 ? nodeEnv(node24, env) : env);

/** `node build` (the Node adapter's server) in `dir` against `serviceUrl` with `svc`'s keys. */
async function startApp(dir: string, serviceUrl: string, svc: TestService) {
  const server = spawnProcess('node', ['build'], {
    cwd: dir,
    env: onNode24({ ...appEnv(svc), SERVICE_URL: serviceUrl, PORT: '0', HOST: '127.0.0.1' }),
  });
  const [, url] = await server.waitFor(/Listening on (http:\/\/\S+)/);
  return { server, base: url!.replace(/\/$/, '') };
}

/**
 * The app sv create makes on SvelteKit `major`, set up as the README says, built and started
 * against its own reference service. Both majors are prepared side by side (npm, then each
 * build), their scenarios then run one after the other.
 */
async function prepare(major: 2 | 3, state: PreparedApp): Promise<void> {
  const { where, running } = state;
  const started = Date.now();
  const commands = commandLines(readmeBlock(README, 'sh', 'sv@')).filter(
    // SvelteKit 2 is what the template asks for; the `npm pkg set` line moves to 3.
    (command) => major === 3 || !command.startsWith('npm pkg set'),
  );
  const setup = await runSetup(commands, {
    cwd: where.dir,
    tarballs: tarballs(),
    env: onNode24(userEnv()),
    generatorFlags: { sv: ['--no-download-check'] },
  });
  running.dir = setup.dir;
  expect(setup.badEngines).toEqual([]);
  const kit = JSON.parse(
    readFileSync(join(running.dir, 'node_modules/@sveltejs/kit/package.json'), 'utf8'),
  );
  expect(Number(kit.version.split('.')[0])).toBe(major);
  writeReadmeFiles(running.dir, major);
  for (const [path, text] of Object.entries(APP_FILES)) {
    mkdirSync(dirname(join(running.dir, path)), { recursive: true });
    writeFileSync(join(running.dir, path), text);
  }
  running.svc = await service();
  // The README's build: `npm run build`, the publishable key from PUBLIC_SERVICE_API_KEY.
  await sh('npm', ['run', 'build'], running.dir, onNode24(appEnv(running.svc, 'sveltekit')));
  const app = await startApp(running.dir, running.svc.url, running.svc);
  state.app = app.server;
  running.server = app.server;
  running.base = app.base;
  console.log(`[sveltekit] ${major}: ready in ${Date.now() - started} ms`);
}

const prepared = new Map<2 | 3, { state: PreparedApp; ready: Promise<void> }>();

beforeAll(() => {
  for (const major of [2, 3] as const) {
    const state: PreparedApp = {
      where: scratch(`sveltekit${major}`),
      running: { pages: [] } as unknown as RunningApp,
    };
    const ready = prepare(major, state);
    ready.catch(() => undefined); // awaited, and failed, by the major's own describe
    prepared.set(major, { state, ready });
  }
});

afterAll(closeBrowser); // last: after-hooks run in reverse order

// Also what a filtered run never reached (its describe's hooks do not run): each once prepared.
afterAll(async () => {
  await Promise.all(
    [...prepared.values()].map(async ({ state, ready }) => {
      await ready.catch(() => undefined);
      await endPrepared(state);
    }),
  );
});

for (const major of [2, 3] as const) {
  describe(`SvelteKit ${major}: the app sv create makes, set up as the README says`, () => {
    const running = {} as RunningApp;
    let app: Spawned;

    beforeAll(async () => {
      const { state, ready } = prepared.get(major)!;
      await ready;
      Object.assign(running, state.running);
      app = state.app!;
    });

    afterAll(() => endPrepared(prepared.get(major)!.state));

    serverError(() => running, 'sveltekit', {
      paths: ['/orders/1001', '/orders/1002'],
      title: TITLES.serverError,
      file: 'src/routes/orders/[id]/+server.ts',
    });
    clientError(() => running, { path: '/orders/missing', titlesBefore: [TITLES.serverError] });

    browserFailures(() => running, 'sveltekit', {
      path: '/',
      titles: {
        browserError: TITLES.browserError,
        rejection: TITLES.browserRejection,
        boundary: TITLES.boundary,
      },
      file: 'src/routes/+page.svelte',
      boundaryFile: 'src/lib/Widget.svelte',
      framesAt: 'src/routes/+page.svelte',
      fallback: 'it has been reported',
    });

    // Last of the server's scenarios: Node's default ends the process.
    serverCrash(() => running, 'sveltekit', {
      kind: 'unhandled-rejection',
      path: '/sync',
      title: TITLES.rejection,
      file: 'src/routes/sync/+server.ts',
      outcome: 'exits',
    });

    onlyThese(
      () => running,
      Object.values(TITLES),
      () => app.output(),
    );
    exitScenarios(`sveltekit${major}`, (url, svc) => startApp(running.dir, url, svc), {
      path: '/orders/1001',
      title: TITLES.serverError,
    });
  });
}
