// What a user reads first about each framework integration, held to what the packages are: every
// `integrations/*` package has its rows in the root README's tables (the integrations with its
// install line, the Nodes with its `engines` range as its package.json says it, the SDK's
// frameworks, what it guarantees at exit), and so do the PHP SDK's plain, Laravel and Symfony
// setups; each `integrations/*` README opens with a Setup whose shell block installs it, the steps
// the cross-framework matrix runs as written (pack/test/matrix reads that README). A new
// integration, or an `engines` change, fails here until the READMEs say so.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/generated-app.ts';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const rootReadme = read('README.md');
const matrixFiles = readdirSync(join(REPO_ROOT, 'pack/test/matrix'))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => read(`pack/test/matrix/${file}`));

const integrations = readdirSync(join(REPO_ROOT, 'integrations'))
  .filter((folder) => existsSync(join(REPO_ROOT, 'integrations', folder, 'package.json')))
  .map((folder) => {
    const manifest = JSON.parse(read(`integrations/${folder}/package.json`));
    return { folder, name: manifest.name as string, engines: manifest.engines?.node as string };
  });

/** The root README's table rows (`| ... |` lines) whose first cell is `first`. */
function rowsStarting(first: string): string[] {
  return rootReadme
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .filter((line) => line.split(/(?<!\\)\|/)[1]?.trim() === first);
}

/** The root README's "At exit" section: one table row (or a shared one) per integration. */
const atExit = /^## At exit[\s\S]*?(?=^## )/m.exec(rootReadme)?.[0] ?? '';

describe('each integration in the READMEs', () => {
  it('finds every integration package', () => {
    expect(integrations.map((i) => i.folder)).toEqual(
      expect.arrayContaining([
        'express',
        'vite',
        'next',
        'nuxt',
        'sveltekit',
        'react-router',
        'hono',
      ]),
    );
  });

  it.each(integrations)(
    '$name: its rows in the root README (integrations, Nodes, SDK frameworks, at exit)',
    (i) => {
      const [row] = rowsStarting(`\`integrations/${i.folder}\``);
      expect(row, `no integrations row for integrations/${i.folder}`).toContain(`\`${i.name}\``);
      expect(row).toMatch(new RegExp(`\`npm install [^\`]*${i.name.replace('/', '\\/')}\\b`));
      expect(atExit).toContain(`\`${i.name}\``);
      const [nodes] = rowsStarting(`\`${i.name}\``);
      expect(nodes, `no Nodes row for ${i.name}`).toBeDefined();
      expect(nodes!.split(/(?<!\\)\|/)[2]!.trim()).toBe(`\`${i.engines.replaceAll('|', '\\|')}\``);
      const frameworks = rowsStarting('Frameworks')[0];
      expect(frameworks).toContain(`\`${i.name}\``);
    },
  );

  it.each([
    ['`php/` (plain PHP)', 'PHP script'],
    ['`php/src/Laravel`', 'Laravel `php artisan`'],
    ['`php/src/Symfony`', 'Symfony `bin/console`'],
  ])('PHP %s: its install line and its rows at exit', (first, exitRow) => {
    expect(rowsStarting(first)[0]).toContain('`composer require svc/svc-php`');
    expect(atExit).toContain(exitRow);
  });

  it.each(integrations)(
    '$name: its README opens with a Setup that installs it, run by the matrix',
    (i) => {
      const readme = read(`integrations/${i.folder}/README.md`);
      const setup = /^## Setup\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
      expect(setup, `integrations/${i.folder}/README.md has no ## Setup`).toBeDefined();
      expect(readme.indexOf('## Setup')).toBe(readme.indexOf('\n## ') + 1); // the first section
      const shell = /```sh\n([\s\S]*?)```/.exec(setup!)?.[1] ?? '';
      expect(shell).toMatch(new RegExp(`^npm install .*${i.name.replace('/', '\\/')}\\b`, 'm'));
      expect(matrixFiles.some((text) => text.includes(`integrations/${i.folder}/README.md`))).toBe(
        true,
      );
    },
  );
});
