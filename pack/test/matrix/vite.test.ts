// Vite in the matrix: the app `create-vite` makes today (react-ts), set up as
// integrations/vite/README.md says, from the packed tarballs, built with the template's own
// `npm run build` (`tsc -b && vite build`), served by `vite preview`, driven in Chromium against
// the reference service. Browser failures only (no server side).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLines, readmeBlock, runSetup, type Spawned, sh, spawnProcess } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { browserExitScenarios } from './exit.ts';
import { REACT_TITLES, reactScenarios } from './react-app.ts';
import { browserFailures, onlyThese, type RunningApp } from './scenarios.ts';
import { appEnv, closeBrowser, freePort, REPO_ROOT, scratch, service, tarballs } from './shared.ts';

const README = join(REPO_ROOT, 'integrations/vite/README.md');
describe('Vite: the app create-vite makes (react-ts), set up as the README says', () => {
  const where = scratch('vite');
  const running = { pages: [] } as unknown as RunningApp;
  let preview: Spawned;

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
    await sh('npm', ['run', 'build'], running.dir, appEnv(running.svc, 'vite'));
    const port = await freePort();
    preview = spawnProcess(
      'npm',
      ['run', 'preview', '--', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
      { cwd: running.dir, env: appEnv(running.svc, 'vite') },
    );
    await preview.waitFor(/Local:\s+http/);
    running.base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    for (const page of running.pages) await page.close();
    await closeBrowser();
    preview?.kill();
    await preview?.exited;
    await running.svc?.close();
    where.done();
  });

  browserFailures(() => running, 'vite', {
    path: '/',
    titles: REACT_TITLES,
    file: 'src/App.tsx',
    framesAt: 'src/App.tsx',
    fallback: 'it has been reported',
  });
  onlyThese(() => running, Object.values(REACT_TITLES));
  browserExitScenarios(() => running, {
    path: '/',
    button: '#browser-error',
    title: REACT_TITLES.browserError,
  });
});
