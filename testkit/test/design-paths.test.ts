import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/generated-app.ts';

// DESIGN.md names files in backticks, from the root (`server/src/store/open.ts`) or from inside a
// package (`store/open.ts`, `core/client.ts`): each must end a path of the repository, so a file
// that moves takes its mentions along.
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.next', '.nuxt', '.output', 'vendor']);

function repositoryFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) repositoryFiles(path, found);
    else found.push(relative(REPO_ROOT, path).split('\\').join('/'));
  }
  return found;
}

/** The file paths a text names in backticks: a folder and a file with a code or text extension. */
function namedPaths(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!.split(':')[0]!)
    .filter((path) => path.includes('/') && /\.(ts|tsx|php|mjs|js|md|yaml|json)$/.test(path))
    .filter((path) => !/^(node_modules|\/|\.|http)/.test(path) && !/[*<>{}[\]@]/.test(path));
}

/** The paths `text` names that end no file of `files`. */
function missingPaths(text: string, files: readonly string[]): string[] {
  return namedPaths(text).filter((p) => !files.some((f) => f === p || f.endsWith(`/${p}`)));
}

describe('DESIGN.md', () => {
  const files = repositoryFiles(REPO_ROOT);

  it('names only files that exist', () => {
    const design = readFileSync(join(REPO_ROOT, 'DESIGN.md'), 'utf8');
    expect(namedPaths(design).length).toBeGreaterThan(100);
    expect(missingPaths(design, files)).toEqual([]);
  });

  it('the check finds a path that moved, from the root or from inside a package', () => {
    const text =
      'see `store/open.ts:12`, `store/sqlite.ts`, `server/src/store/sqlite-board.ts`, not `*/src`';
    expect(missingPaths(text, files)).toEqual([
      'store/sqlite.ts',
      'server/src/store/sqlite-board.ts',
    ]);
  });
});
