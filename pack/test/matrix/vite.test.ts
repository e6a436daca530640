// Vite in the matrix: the app `create-vite` makes today (react-ts), set up as
// integrations/vite/README.md says (`sourceMaps: 'upload'`), from the packed tarballs, built with
// the template's own `npm run build` (`tsc -b && vite build`), served by `vite preview`, driven in
// Chromium against the reference service, which maps the browser's frames through the maps the
// build uploaded. Browser failures only (no server side).
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  blockVariables,
  commandLines,
  readmeBlock,
  runSetup,
  type Spawned,
  sh,
  spawnProcess,
} from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserExitScenarios } from './exit.ts';
import { REACT_TITLES, reactScenarios } from './react-app.ts';
import { browserFailures, onlyThese, type RunningApp } from './scenarios.ts';
import { expectMappedThrowSite, rebuildKeepsVariant, uploadedMaps } from './source-maps.ts';
import {
  appEnv,
  clickOn,
  closeBrowser,
  freePort,
  REPO_ROOT,
  scratch,
  service,
  tarballs,
} from './shared.ts';

const README = join(REPO_ROOT, 'integrations/vite/README.md');

/** The README's build variables, checked against its run block: the secret key, the address, the publishable key. */
function viteEnv(svc: RunningApp['svc'], release?: string): NodeJS.ProcessEnv {
  const env = appEnv(svc, 'vite');
  const run = readmeBlock(README, 'sh', 'SERVICE_SIGNING_SECRET=');
  const named = blockVariables(run);
  expect(named).toEqual([
    'SERVICE_KEY_ID',
    'SERVICE_SIGNING_SECRET',
    'SERVICE_URL',
    'VITE_SERVICE_API_KEY',
  ]);
  for (const name of named) expect(env[name]).toBeTruthy();
  return release ? { ...env, SERVICE_RELEASE: release } : env;
}

describe('Vite: the app create-vite makes (react-ts), set up as the README says', () => {
  const where = scratch('vite');
  const running = { pages: [] } as unknown as RunningApp;
  let preview: Spawned;
  let buildOutput = '';

  /** `vite preview` of the build in dist/ on a free port. */
  async function startPreview(): Promise<void> {
    const port = await freePort();
    preview = spawnProcess(
      'npm',
      ['run', 'preview', '--', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
      { cwd: running.dir, env: appEnv(running.svc, 'vite') },
    );
    await preview.waitFor(/Local:\s+http/);
    running.base = `http://127.0.0.1:${port}`;
  }

  beforeAll(async () => {
    const setup = await runSetup(commandLines(readmeBlock(README, 'sh', 'create-vite@')), {
      cwd: where.dir,
      tarballs: tarballs(),
      generatorFlags: { 'create-vite': ['--no-interactive', '--no-immediate'] },
    });
    running.dir = setup.dir;
    expect(setup.badEngines).toEqual([]);
    // The README's files, pasted over the template's.
    for (const file of ['vite.config.ts', 'src/main.tsx'])
      writeFileSync(join(running.dir, file), readmeBlock(README, 'tsx?', `// ${file}\n`));
    writeFileSync(join(running.dir, 'src/App.tsx'), reactScenarios());
    running.svc = await service();
    buildOutput = await sh('npm', ['run', 'build'], running.dir, viteEnv(running.svc));
    await startPreview();
  });

  afterAll(async () => {
    for (const page of running.pages) await page.close();
    await closeBrowser();
    preview?.kill();
    await preview?.exited;
    await running.svc?.close();
    where.done();
  });

  uploadedMaps(() => running, {
    output: () => buildOutput,
    deployed: () => join(running.dir, 'dist'),
    chunk: /^assets\/index-[\w-]{8}\.js$/,
    debugIds: true,
  });
  browserFailures(() => running, 'vite', {
    path: '/',
    titles: REACT_TITLES,
    file: 'src/App.tsx',
    framesAt: 'src/App.tsx',
    fallback: 'it has been reported',
  });
  it('the throw sites are mapped by the service, with their original function names', async () => {
    await expectMappedThrowSite(running, REACT_TITLES.browserError, {
      file: 'src/App.tsx',
      fn: 'emptyCart',
    });
    await expectMappedThrowSite(running, REACT_TITLES.boundary, {
      file: 'src/App.tsx',
      fn: 'Widget',
    });
  });
  rebuildKeepsVariant(() => running, {
    title: REACT_TITLES.boundary,
    async rebuild() {
      appendFileSync(
        join(running.dir, 'src/main.tsx'),
        "\ndocument.documentElement.dataset.build = '2';\n",
      );
      preview.kill();
      await preview.exited;
      await sh('npm', ['run', 'build'], running.dir, viteEnv(running.svc, 'matrix@2'));
      await startPreview();
    },
    async again() {
      const page = await clickOn(`${running.base}/`, '#error-boundary');
      running.pages.push(page);
      await page.waitForSelector('text=it has been reported');
    },
  });
  onlyThese(() => running, Object.values(REACT_TITLES));
  browserExitScenarios(() => running, {
    path: '/',
    button: '#browser-error',
    title: REACT_TITLES.browserError,
  });
});
