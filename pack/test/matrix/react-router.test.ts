// React Router in the matrix: the app `create-react-router` makes (its default template, handed
// to the real generator from ./react-router-starter.ts), set up as
// integrations/react-router/README.md says, from the packed tarballs, built with the template's
// `npm run build`, run with its `npm start` (react-router-serve), browser in Chromium, against the
// reference service; every command on Node 24 (React Router 8 needs 22.22+).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
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
import { writeTemplate } from './react-router-starter.ts';
import {
  browserFailures,
  clientError,
  onlyThese,
  type RunningApp,
  serverCrash,
  serverError,
} from './scenarios.ts';
import { appEnv, closeBrowser, freePort, REPO_ROOT, scratch, service, tarballs } from './shared.ts';
import type { TestService } from './shared.ts';

const README = join(REPO_ROOT, 'integrations/react-router/README.md');
const TITLES = {
  serverError: 'Error: Order <n> could not be loaded (GET /orders/:id)',
  rejection: 'Error: Inventory sync failed (unhandled rejection)',
  browserError: 'TypeError: Cart <n> is empty (browser)',
  browserRejection: 'Error: Sync <n> failed (unhandled rejection in the browser)',
  boundary: 'RangeError: Widget size <n> out of range (React component)',
};

/** The app's own routes: failing loaders, and a page with one failing button per kind. */
const APP_FILES: Record<string, string> = {
  'app/routes.ts': `import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('orders/:id', 'routes/order.tsx'),
  route('sync', 'routes/sync.tsx'),
] satisfies RouteConfig;
`,
  'app/routes/order.tsx': `import { data } from 'react-router';
import type { Route } from './+types/order';

export function loader({ params }: Route.LoaderArgs) {
  if (params.id === 'missing') throw data('Order not found', { status: 404 });
  throw new Error(\`Order \${params.id} could not be loaded\`);
}
`,
  'app/routes/sync.tsx': `async function syncInventory() {
  throw new Error('Inventory sync failed');
}

export function loader() {
  syncInventory(); // not awaited: its rejection is unhandled
  return new Response('sync started');
}
`,
  'app/widget.tsx': `export function Widget({ size }: { size: number }) {
  if (size > 3) throw new RangeError(\`Widget size \${size} out of range\`);
  return <p>Widget of size {size}</p>;
}
`,
  'app/routes/home.tsx': `import { useState } from 'react';
import { Widget } from '../widget';

export default function Home() {
  const [size, setSize] = useState(1);
  const checkOut = () => {
    setTimeout(() => {
      throw new TypeError(\`Cart \${Date.now()} is empty\`);
    });
  };
  const syncNow = async () => {
    throw new Error(\`Sync \${Date.now()} failed\`);
  };
  return (
    <main>
      <button id="browser-error" type="button" onClick={checkOut}>Check out</button>
      <button id="browser-rejection" type="button" onClick={() => void syncNow()}>Sync</button>
      <button id="error-boundary" type="button" onClick={() => setSize(size + 10)}>Grow</button>
      <Widget size={size} />
    </main>
  );
}
`,
};

describe('React Router: the app create-react-router makes, set up as the README says', () => {
  const where = scratch('react-router');
  const running = { pages: [] } as unknown as RunningApp;
  let app: Spawned;
  const node24 = testNode(24);
  const onNode24 = (env: NodeJS.ProcessEnv) => (node24 ? nodeEnv(node24, env) : env);

  beforeAll(async () => {
    const template = writeTemplate(where.dir);
    const setup = await runSetup(commandLines(readmeBlock(README, 'sh', 'create-react-router@')), {
      cwd: where.dir,
      tarballs: tarballs(),
      env: onNode24(userEnv()),
      generatorFlags: { 'create-react-router': ['--template', template, '--no-git-init'] },
    });
    running.dir = setup.dir;
    expect(setup.badEngines).toEqual([]);
    const dir = running.dir;
    // The README's files, pasted over the template's (the config before `reveal`, which loads
    // it), its block appended to the entry.server.tsx that `reveal` writes.
    writeFileSync(
      join(dir, 'react-router.config.ts'),
      readmeBlock(README, 'ts', '// react-router.config.ts\n'),
    );
    await runSetup(commandLines(readmeBlock(README, 'sh', 'react-router reveal')), {
      cwd: dir,
      tarballs: tarballs(),
      env: onNode24(userEnv()),
    });
    for (const file of ['vite.config.ts', 'app/entry.client.tsx'])
      writeFileSync(join(dir, file), readmeBlock(README, 'tsx?', `// ${file}\n`));
    appendFileSync(
      join(dir, 'app/entry.server.tsx'),
      `\n${readmeBlock(README, 'tsx', '// Svc: at the end of app/entry.server.tsx')}`,
    );
    for (const [path, text] of Object.entries(APP_FILES)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    running.svc = await service();
    await sh('npm', ['run', 'build'], dir, onNode24(appEnv(running.svc, 'react-router')));
    const started = await startApp(running.svc.url, running.svc);
    app = started.server;
    running.server = app;
    running.base = started.base;
  });

  /** The template's `npm start` (react-router-serve) against `serviceUrl` with `svc`'s keys. */
  async function startApp(serviceUrl: string, svc: TestService) {
    const port = await freePort();
    const server = spawnProcess('npm', ['start'], {
      cwd: running.dir,
      env: onNode24({
        ...appEnv(svc),
        SERVICE_URL: serviceUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
      }),
    });
    await server.waitFor(/\[react-router-serve\] http/);
    return { server, base: `http://127.0.0.1:${port}` };
  }

  afterAll(async () => {
    for (const page of running.pages) await page.close();
    await closeBrowser();
    app?.kill('SIGKILL');
    await app?.exited;
    await running.svc?.close();
    where.done();
  });

  serverError(() => running, 'react-router', {
    paths: ['/orders/1001', '/orders/1002'],
    title: TITLES.serverError,
    file: 'app/routes/order.tsx',
  });
  clientError(() => running, { path: '/orders/missing', titlesBefore: [TITLES.serverError] });

  browserFailures(() => running, 'react-router', {
    path: '/',
    titles: {
      browserError: TITLES.browserError,
      rejection: TITLES.browserRejection,
      boundary: TITLES.boundary,
    },
    file: 'app/routes/home.tsx',
    boundaryFile: 'app/widget.tsx',
    framesAt: 'app/routes/home.tsx',
    fallback: 'An unexpected error occurred.',
  });

  // Last of the server's scenarios: Node's default ends the process.
  serverCrash(() => running, 'react-router', {
    kind: 'unhandled-rejection',
    path: '/sync',
    title: TITLES.rejection,
    file: 'app/routes/sync.tsx',
    outcome: 'exits',
  });

  onlyThese(
    () => running,
    Object.values(TITLES),
    () => app.output(),
  );
  exitScenarios('react-router', startApp, { path: '/orders/1001', title: TITLES.serverError });
});
