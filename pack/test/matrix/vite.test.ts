// Vite in the matrix: the app `create-vite` makes today (react-ts), set up as
// integrations/vite/README.md says, from the packed tarballs, built with the template's own
// `npm run build` (`tsc -b && vite build`), served by `vite preview`, driven in Chromium against
// the reference service. Browser failures only (no server side).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLines, readmeBlock, runSetup, type Spawned, sh, spawnProcess } from '@svc/testkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTitles, expectCard, expected, expectFramesAt } from './cards.ts';
import { REACT_TITLES, reactScenarios } from './react-app.ts';
import {
  appEnv,
  clickOn,
  closeBrowser,
  freePort,
  REPO_ROOT,
  scratch,
  service,
  type TestService,
  tarballs,
} from './shared.ts';

const README = join(REPO_ROOT, 'integrations/vite/README.md');
const TITLES = REACT_TITLES;

describe('Vite: the app create-vite makes (react-ts), set up as the README says', () => {
  const where = scratch('vite');
  let svc: TestService;
  let preview: Spawned;
  let url: string;
  let dir: string;
  const pages: Page[] = [];

  beforeAll(async () => {
    const setup = await runSetup(commandLines(readmeBlock(README, 'sh', 'create-vite@')), {
      cwd: where.dir,
      tarballs: tarballs(),
      generatorFlags: { 'create-vite': ['--no-interactive', '--no-immediate'] },
    });
    dir = setup.dir;
    expect(setup.badEngines).toEqual([]);
    // The README's files, pasted over the template's.
    for (const file of ['vite.config.ts', 'src/main.tsx'])
      writeFileSync(join(dir, file), readmeBlock(README, 'tsx?', `// ${file}\n`));
    writeFileSync(join(dir, 'src/App.tsx'), reactScenarios());
    svc = await service();
    await sh('npm', ['run', 'build'], dir, appEnv(svc, 'vite'));
    const port = await freePort();
    preview = spawnProcess(
      'npm',
      ['run', 'preview', '--', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
      { cwd: dir, env: appEnv(svc, 'vite') },
    );
    await preview.waitFor(/Local:\s+http/);
    url = `http://127.0.0.1:${port}/`;
  });

  afterAll(async () => {
    for (const page of pages) await page.close();
    await closeBrowser();
    preview?.kill();
    await preview?.exited;
    await svc?.close();
    where.done();
  });

  it('an unhandled browser error: one card for two page loads, named at src/App.tsx', async () => {
    pages.push(await clickOn(url, '#browser-error'), await clickOn(url, '#browser-error'));
    await expectCard(
      svc,
      expected('browser-error', 'vite', {
        title: TITLES.browserError,
        file: 'src/App.tsx',
        occurrences: 2,
      }),
    );
  });

  it('its description frames are project-relative, through the hidden maps', async () => {
    const card = (await svc.cards()).find((c) => c.title === TITLES.browserError)!;
    expectFramesAt(card, 'src/App.tsx', dir);
  });

  it('an unhandled rejection in the browser', async () => {
    pages.push(await clickOn(url, '#browser-rejection'));
    await expectCard(
      svc,
      expected('browser-rejection', 'vite', {
        title: TITLES.rejection,
        file: 'src/App.tsx',
        occurrences: 1,
      }),
    );
  });

  it('an error boundary (the README`s SvcErrorBoundary) catches a render error: one card', async () => {
    const page = await clickOn(url, '#error-boundary');
    pages.push(page);
    await page.waitForSelector('text=it has been reported');
    await expectCard(
      svc,
      expected('error-boundary', 'vite', {
        title: TITLES.boundary,
        file: 'src/App.tsx',
        occurrences: 1,
      }),
    );
    // Caught by the boundary, so not reported again as an uncaught error.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await allTitles(svc)).toEqual(Object.values(TITLES).sort());
  });
});
