// Nuxt in the matrix: the app `nuxi init` makes today (its default `minimal` template, served to
// the real nuxi from ./nuxt-starter.ts: this machine cannot reach GitHub), set up as
// integrations/nuxt/README.md says, from the packed tarballs, built with the template's own
// `npm run build`, run with `node .output/server/index.mjs`, browser in Chromium, against the
// reference service. Server and browser failures.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  blockVariables,
  commandLines,
  readmeBlock,
  runSetup,
  type Spawned,
  sh,
  spawnProcess,
  userEnv,
} from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitScenarios } from './exit.ts';
import { APP_FILES, TITLES } from './nuxt-app.ts';
import { starterRegistry } from './nuxt-starter.ts';
import {
  browserFailures,
  clientError,
  onlyThese,
  type RunningApp,
  serverCrash,
  serverError,
} from './scenarios.ts';
import { appEnv, clickOn, closeBrowser, REPO_ROOT, scratch, service, tarballs } from './shared.ts';
import type { TestService } from './shared.ts';
import {
  againKeepsVariant,
  expectMappedThrowSite,
  rebuildKeepsVariant,
  uploadedMaps,
} from './source-maps.ts';

const README = join(REPO_ROOT, 'integrations/nuxt/README.md');
/** Another server of the build in `dir`, against `serviceUrl` with `svc`'s keys (the exit cases). */
async function startAgainst(dir: string, serviceUrl: string, svc: TestService) {
  const server = spawnProcess(process.execPath, ['.output/server/index.mjs'], {
    cwd: dir,
    env: {
      ...appEnv(svc, 'nuxt'),
      SERVICE_URL: serviceUrl,
      NUXT_PUBLIC_SERVICE_URL: serviceUrl,
      PORT: '0',
      HOST: '127.0.0.1',
    },
  });
  const [, url] = await server.waitFor(/Listening on (http:\/\/\S+)/);
  return { server, base: url!.replace(/\/$/, '') };
}

describe('Nuxt: the app nuxi init makes, set up as the README says', () => {
  const where = scratch('nuxt');
  const running = { pages: [] } as unknown as RunningApp;
  let app: Spawned;
  let buildOutput = '';

  beforeAll(async () => {
    const registry = await starterRegistry(where.dir);
    try {
      const setup = await runSetup(commandLines(readmeBlock(README, 'sh', 'nuxi@')), {
        cwd: where.dir,
        tarballs: tarballs(),
        generatorFlags: {
          nuxi: [
            '--template',
            'minimal',
            '--packageManager',
            'npm',
            '--gitInit',
            'false',
            '--no-modules',
          ],
        },
        env: userEnv({ NUXI_INIT_REGISTRY: registry.url }),
      });
      running.dir = setup.dir;
      expect(setup.badEngines).toEqual([]);
    } finally {
      await registry.close();
    }
    const dir = running.dir;
    writeFileSync(join(dir, 'nuxt.config.ts'), readmeBlock(README, 'ts', '// nuxt.config.ts\n'));
    for (const [path, text] of Object.entries(APP_FILES)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    running.svc = await service();
    buildOutput = await build();
    await start();
  });

  /** The README's build, `npm run build`, with the variables of its run block; its output. */
  async function build(release?: string): Promise<string> {
    const run = readmeBlock(README, 'sh', 'npm run build');
    const named = blockVariables(run);
    expect(named).toEqual([
      'NUXT_PUBLIC_SERVICE_API_KEY',
      'NUXT_PUBLIC_SERVICE_URL',
      'SERVICE_KEY_ID',
      'SERVICE_SIGNING_SECRET',
      'SERVICE_URL',
    ]);
    const env = appEnv(running.svc, 'nuxt');
    return sh(
      'npm',
      ['run', 'build'],
      running.dir,
      release ? { ...env, SERVICE_RELEASE: release } : env,
    );
  }

  /** `node .output/server/index.mjs`, as the README's run block starts it. */
  async function start(release?: string): Promise<void> {
    app = spawnProcess(process.execPath, ['.output/server/index.mjs'], {
      cwd: running.dir,
      env: {
        ...appEnv(running.svc, 'nuxt'),
        ...(release ? { SERVICE_RELEASE: release } : {}),
        NUXT_PUBLIC_SERVICE_URL: running.svc.url,
        PORT: '0',
        HOST: '127.0.0.1',
      },
    });
    running.server = app;
    const [, url] = await app.waitFor(/Listening on (http:\/\/\S+)/);
    running.base = url!.replace(/\/$/, '');
  }

  afterAll(async () => {
    for (const page of running.pages) await page.close();
    await closeBrowser();
    app?.kill();
    await app?.exited;
    await running.svc?.close();
    where.done();
  });

  serverError(() => running, 'nuxt', {
    paths: ['/api/orders/1001', '/api/orders/1002'],
    title: TITLES.serverError,
    file: 'server/api/orders/[id].get.ts',
  });
  clientError(() => running, { path: '/api/orders/missing', titlesBefore: [TITLES.serverError] });

  uploadedMaps(() => running, {
    output: () => buildOutput,
    deployed: () => join(running.dir, '.output/public'),
    chunk: /^_nuxt\/[\w-]+\.js$/,
    debugIds: true,
  });
  // A page that fails in server-side rendering: named by the page itself (the server's maps,
  // chained through Vite's SSR maps at build time), with its original function name.
  serverError(() => running, 'nuxt', {
    paths: ['/orders/7', '/orders/8'],
    title: TITLES.pageError,
    file: 'app/pages/orders/[id].vue',
  });
  it('the page error is thrown in renderOrder, as the page names it', async () => {
    await expectMappedThrowSite(running, TITLES.pageError, {
      file: 'app/pages/orders/[id].vue',
      fn: 'renderOrder',
    });
  });

  serverCrash(() => running, 'nuxt', {
    kind: 'unhandled-rejection',
    path: '/api/sync',
    title: TITLES.rejection,
    file: 'server/api/sync.get.ts',
    outcome: 'survives',
  });

  browserFailures(() => running, 'nuxt', {
    path: '/',
    titles: {
      browserError: TITLES.browserError,
      rejection: TITLES.browserRejection,
      boundary: TITLES.boundary,
    },
    file: 'app/app.vue',
    boundaryFile: 'app/components/Widget.vue',
    framesAt: 'app/app.vue',
  });
  it('the browser throw sites are mapped by the service, with their original function names', async () => {
    await expectMappedThrowSite(running, TITLES.browserRejection, {
      file: 'app/app.vue',
      fn: 'syncNow',
    });
    await expectMappedThrowSite(running, TITLES.boundary, {
      file: 'app/components/Widget.vue',
      fn: 'setup',
    });
  });
  rebuildKeepsVariant(() => running, {
    title: TITLES.boundary,
    async rebuild() {
      writeFileSync(
        join(running.dir, 'app/pages/about.vue'),
        '<template>\n  <p>About us</p>\n</template>\n',
      );
      app.kill();
      await app.exited;
      await build('matrix@2');
      await start('matrix@2');
    },
    async again() {
      running.pages.push(await clickOn(`${running.base}/`, '#error-boundary'));
    },
  });
  againKeepsVariant(() => running, {
    title: TITLES.pageError,
    variant: 'Error: Order 7 failed to render',
    async again() {
      expect((await fetch(`${running.base}/orders/7`)).status).toBe(500);
    },
  });
  onlyThese(
    () => running,
    Object.values(TITLES),
    () => app.output(),
  );

  exitScenarios('nuxt', (url, svc) => startAgainst(running.dir, url, svc), {
    path: '/api/orders/1001',
    title: TITLES.serverError,
  });
});
