// Nuxt in the matrix: the app `nuxi init` makes today (its default `minimal` template, served to
// the real nuxi from ./nuxt-starter.ts: this machine cannot reach GitHub), set up as
// integrations/nuxt/README.md says, from the packed tarballs, built with the template's own
// `npm run build`, run with `node .output/server/index.mjs`, browser in Chromium, against the
// reference service. Server and browser failures.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  commandLines,
  readmeBlock,
  runSetup,
  type Spawned,
  sh,
  spawnProcess,
  userEnv,
} from '@svc/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTitles, expectCard, expected, expectFramesAt } from './cards.ts';
import { starterRegistry } from './nuxt-starter.ts';
import {
  appEnv,
  clickOn,
  closeBrowser,
  REPO_ROOT,
  scratch,
  service,
  type TestService,
  tarballs,
} from './shared.ts';

const README = join(REPO_ROOT, 'integrations/nuxt/README.md');
const TITLES = {
  serverError: 'Error: Order <n> could not be loaded (GET /api/orders/:id)',
  rejection: 'Error: Inventory sync failed (unhandled rejection)',
  browserError: 'TypeError: Cart <n> is empty (browser)',
  browserRejection: 'Error: Sync <n> failed (unhandled rejection in the browser)',
  boundary: 'RangeError: Widget size <n> out of range (Vue component)',
};

/** The app's own code: failing server routes, and a page with one failing button per kind. */
const APP_FILES: Record<string, string> = {
  'server/api/orders/[id].get.ts': `export default defineEventHandler((event) => {
  const id = getRouterParam(event, 'id');
  if (id === 'missing') throw createError({ statusCode: 404, statusMessage: 'Order not found' });
  throw new Error(\`Order \${id} could not be loaded\`);
});
`,
  'server/api/sync.get.ts': `async function syncInventory() {
  throw new Error('Inventory sync failed');
}

export default defineEventHandler(() => {
  syncInventory(); // not awaited: its rejection is unhandled
  return { started: true };
});
`,
  'app/components/Widget.vue': `<script setup lang="ts">
const props = defineProps<{ size: number }>();
if (props.size > 3) throw new RangeError(\`Widget size \${props.size} out of range\`);
</script>

<template>
  <p>Widget of size {{ size }}</p>
</template>
`,
  'app/app.vue': `<script setup lang="ts">
const size = ref(1);
function checkOut() {
  setTimeout(() => {
    throw new TypeError(\`Cart \${Date.now()} is empty\`);
  });
}
async function syncNow() {
  throw new Error(\`Sync \${Date.now()} failed\`);
}
function startSync() {
  void syncNow(); // not awaited, so not Vue's: an unhandled rejection
}
</script>

<template>
  <main>
    <button id="browser-error" type="button" @click="checkOut">Check out</button>
    <button id="browser-rejection" type="button" @click="startSync">Sync</button>
    <button id="error-boundary" type="button" @click="size += 10">Grow</button>
    <Widget v-if="size > 0" :key="size" :size="size" />
  </main>
</template>
`,
};

describe('Nuxt: the app nuxi init makes, set up as the README says', () => {
  const where = scratch('nuxt');
  let svc: TestService;
  let app: Spawned;
  let base: string;
  let dir: string;
  const pages: Page[] = [];

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
      dir = setup.dir;
      expect(setup.badEngines).toEqual([]);
    } finally {
      await registry.close();
    }
    writeFileSync(join(dir, 'nuxt.config.ts'), readmeBlock(README, 'ts', '// nuxt.config.ts\n'));
    for (const [path, text] of Object.entries(APP_FILES)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    svc = await service();
    // The README's build: `npm run build`.
    await sh('npm', ['run', 'build'], dir, appEnv(svc, 'nuxt'));
    app = spawnProcess(process.execPath, ['.output/server/index.mjs'], {
      cwd: dir,
      env: {
        ...appEnv(svc, 'nuxt'),
        NUXT_PUBLIC_SERVICE_URL: svc.url,
        PORT: '0',
        HOST: '127.0.0.1',
      },
    });
    const [, url] = await app.waitFor(/Listening on (http:\/\/\S+)/);
    base = url!.replace(/\/$/, '');
  });

  afterAll(async () => {
    for (const page of pages) await page.close();
    await closeBrowser();
    app?.kill();
    await app?.exited;
    await svc?.close();
    where.done();
  });

  it('an unhandled server error: one card for two requests, named at the route file', async () => {
    expect((await fetch(`${base}/api/orders/1001`)).status).toBe(500);
    expect((await fetch(`${base}/api/orders/1002`)).status).toBe(500);
    await expectCard(
      svc,
      expected('server-error', 'nuxt', {
        title: TITLES.serverError,
        file: 'server/api/orders/[id].get.ts',
        occurrences: 2,
      }),
    );
  });

  it('its description frames are project-relative, through the on-disk maps', async () => {
    const card = (await svc.cards()).find((c) => c.title === TITLES.serverError)!;
    expectFramesAt(card, 'server/api/orders/[id].get.ts', dir);
  });

  it('a 4xx the app raises makes no card', async () => {
    expect((await fetch(`${base}/api/orders/missing`)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 2500)); // one drain cadence
    expect(await allTitles(svc)).toEqual([TITLES.serverError]);
  });

  it('an unhandled rejection on the server: one critical card, the server keeps serving', async () => {
    expect((await fetch(`${base}/api/sync`)).status).toBe(200);
    await expectCard(
      svc,
      expected('unhandled-rejection', 'nuxt', {
        title: TITLES.rejection,
        file: 'server/api/sync.get.ts',
        occurrences: 1,
      }),
    );
    expect((await fetch(`${base}/api/orders/1003`)).status).toBe(500);
  });

  it('an unhandled browser error: one card for two page loads, named at app/app.vue', async () => {
    pages.push(await clickOn(base, '#browser-error'), await clickOn(base, '#browser-error'));
    await expectCard(
      svc,
      expected('browser-error', 'nuxt', {
        title: TITLES.browserError,
        file: 'app/app.vue',
        occurrences: 2,
      }),
    );
  });

  it('an unhandled rejection in the browser', async () => {
    pages.push(await clickOn(base, '#browser-rejection'));
    await expectCard(
      svc,
      expected('browser-rejection', 'nuxt', {
        title: TITLES.browserRejection,
        file: 'app/app.vue',
        occurrences: 1,
      }),
    );
  });

  it('a component error (Nuxt`s vue:error, the error boundary of Vue): one card', async () => {
    pages.push(await clickOn(base, '#error-boundary'));
    await expectCard(
      svc,
      expected('error-boundary', 'nuxt', {
        title: TITLES.boundary,
        file: 'app/components/Widget.vue',
        occurrences: 1,
      }),
    );
    await new Promise((r) => setTimeout(r, 2500));
    expect(await allTitles(svc)).toEqual(Object.values(TITLES).sort());
    expect(app.output()).not.toContain(svc.keys.signingSecret);
  });
});
