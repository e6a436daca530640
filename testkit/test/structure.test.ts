// The structure rules over the packages' sources: no hand-written function over 100 lines, no
// import circle (every reference between modules counts: `import type` and `typeof import()`
// too, since a reader follows them the same way, and `import()` of a lazy chunk, which must
// not import its loader back). The PHP SDK (`php/src`) is held to the same rules by PHP's own
// tokenizer (src/structure.php), when `php` is installed.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/generated-app.ts';
import {
  importCircles,
  MAX_FUNCTION_LINES,
  longFunctions,
  packageSourceDirs,
  sourceFiles,
  structureProblems,
} from '../src/structure.ts';

describe('the packages’ sources', () => {
  it('cover every package: its src and bin folders, found on disk', () => {
    const dirs = packageSourceDirs(REPO_ROOT);
    expect(dirs).toEqual(expect.arrayContaining(['codegen/src', 'runtime/src', 'server/src']));
    expect(dirs).toEqual(expect.arrayContaining(['server/bin', 'integrations/next/src']));
    // Every integration folder (those landing later too) and every workspace with sources, but
    // the example apps (framework layouts a user copies, not packages).
    const integrations = readdirSync(join(REPO_ROOT, 'integrations')).filter((name) =>
      existsSync(join(REPO_ROOT, 'integrations', name, 'package.json')),
    );
    for (const name of integrations) expect(dirs).toContain(`integrations/${name}/src`);
    for (const workspace of workspaces().filter((w) => !w.startsWith('examples/'))) {
      if (existsSync(join(REPO_ROOT, workspace, 'src'))) expect(dirs).toContain(`${workspace}/src`);
    }
    expect(sourceFiles(REPO_ROOT, dirs).length).toBeGreaterThan(200);
  });

  it('cover every hand-written code file a package publishes (dist is built from src)', () => {
    const covered = new Set(sourceFiles(REPO_ROOT, packageSourceDirs(REPO_ROOT)));
    const published = workspaces().flatMap((workspace) => publishedCode(workspace));
    expect(published.length).toBeGreaterThan(0);
    expect(published.filter((file) => !covered.has(file))).toEqual([]);
  });

  it('have no function over 100 lines and no import circle', () => {
    expect(structureProblems(REPO_ROOT, packageSourceDirs(REPO_ROOT))).toEqual([]);
  });
});

describe('the structure check', () => {
  let root = '';
  const plant = (files: Record<string, string>): void => {
    root = mkdtempSync(join(tmpdir(), 'svc-structure-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  };
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const lines = (n: number): string =>
    Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');

  it('fails on a planted long function of each kind, not on 100 lines or a generated file', () => {
    plant({
      'pkg/src/long.ts': [
        // 101 lines: signature, 99 body lines, closing brace.
        `export function tooLong(x: number) {\n${lines(99)}\n}`,
        `export function justFits(x: number) {\n${lines(98)}\n}`,
        `export const arrow = (x: number) => {\n${lines(99)}\n};`,
        `export const expression = function (x: number) {\n${lines(99)}\n};`,
        `export class Holder {\n  method(x: number) {\n${lines(99)}\n  }\n}`,
        `export function outer() {\n  setTimeout(() => {\n${lines(99)}\n  });\n}`,
      ].join('\n'),
      'pkg/src/long.gen.ts': `export function generated(x: number) {\n${lines(200)}\n}`,
    });
    const found = longFunctions(root, sourceFiles(root, ['pkg/src']));
    expect(found.map((f) => [f.name, f.lines])).toEqual([
      ['tooLong', 101],
      ['arrow', 101],
      ['expression', 101],
      ['Holder > method', 101],
      ['outer', 103],
      ['outer > callback of setTimeout', 101],
    ]);
    expect(structureProblems(root, ['pkg/src'])[0]).toBe(
      'pkg/src/long.ts:1 tooLong is 101 lines (at most 100): split it by concern',
    );
  });

  it('fails on a planted circle, through type-only and lazy imports too', () => {
    plant({
      'pkg/src/a.ts': `import { b } from './b.js';\nexport const a = () => b;`,
      'pkg/src/b.ts': `import type { A } from './types.ts';\nexport const b = 1 as A;`,
      'pkg/src/types.ts': `export type A = typeof import('./a.ts');`,
      'pkg/src/loader.ts': `export const load = () => import('./chunk.ts');`,
      'pkg/src/chunk.ts': `import { load } from './loader.ts';\nexport { load };`,
      'pkg/src/leaf.ts': `import { b } from './b.ts';\nexport const leaf = b;`,
    });
    expect(importCircles(root, sourceFiles(root, ['pkg/src']))).toEqual([
      ['pkg/src/a.ts', 'pkg/src/b.ts', 'pkg/src/types.ts'],
      ['pkg/src/chunk.ts', 'pkg/src/loader.ts'],
    ]);
    expect(structureProblems(root, ['pkg/src'])).toEqual([
      'import circle: pkg/src/a.ts <-> pkg/src/b.ts <-> pkg/src/types.ts',
      'import circle: pkg/src/chunk.ts <-> pkg/src/loader.ts',
    ]);
  });
});

/** The root package.json's workspaces, `dir/*` patterns expanded. */
function workspaces(): string[] {
  const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  return (root.workspaces as string[]).flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(join(REPO_ROOT, pattern.slice(0, -2))).map(
          (n) => `${pattern.slice(0, -2)}/${n}`,
        )
      : [pattern],
  );
}

/** The code files (absolute) a published workspace ships by its `files`, its built `dist` aside. */
function publishedCode(workspace: string): string[] {
  const dir = join(REPO_ROOT, workspace);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (manifest.private) return [];
  const shipped = (manifest.files as string[] | undefined) ?? [];
  return shipped
    .filter((entry) => !entry.startsWith('!') && entry !== 'dist' && existsSync(join(dir, entry)))
    .flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? sourceFiles(path, ['.']) : [path];
    })
    .filter((file) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(file) && !file.endsWith('.d.ts'));
}

const PHP_RULES = fileURLToPath(new URL('../src/structure.php', import.meta.url));
const hasPhp = spawnSync('php', ['-v']).status === 0;
if (!hasPhp)
  console.log(
    "testkit: the PHP sources' structure check skipped: php is not on the PATH (php-cli)",
  );

/** What src/structure.php finds under `src`. */
function phpProblems(src: string): {
  long: [string, number, string, number][];
  circles: string[][];
} {
  const run = spawnSync('php', [PHP_RULES, src, String(MAX_FUNCTION_LINES)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`structure.php failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe.runIf(hasPhp)("the PHP SDK's sources", () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('have no function over 100 lines and no import circle', () => {
    expect(phpProblems(join(REPO_ROOT, 'php/src'))).toEqual({ long: [], circles: [] });
  });

  it('the check fails on a planted long method and circles through use, qualified and bare names', () => {
    root = mkdtempSync(join(tmpdir(), 'svc-structure-php-'));
    const body = Array.from({ length: 99 }, (_, i) => `        $x += ${i};`).join('\n');
    const files: Record<string, string> = {
      'A/Long.php': `<?php\nnamespace Svc\\A;\n\nfinal class Long\n{\n    public function tooLong(int $x): int\n    {\n${body}\n        return $x;\n    }\n}\n`,
      'A/One.php': `<?php\nnamespace Svc\\A;\n\nuse Svc\\B\\Two;\n\nfinal class One\n{\n    public static function make(): Two { return new Two(); }\n}\n`,
      'B/Two.php': `<?php\nnamespace Svc\\B;\n\nfinal class Two\n{\n    public function back(): ?\\Svc\\A\\One { return null; }\n}\n`,
      'A/Near.php': `<?php\nnamespace Svc\\A;\n\nfinal class Near\n{\n    public function f(): void { Far::g(); }\n}\n`,
      'A/Far.php': `<?php\nnamespace Svc\\A;\n\nfinal class Far\n{\n    public static function g(): void { new Near(); }\n}\n`,
      'A/Leaf.gen.php': `<?php\nnamespace Svc\\A;\n\nfinal class Leaf\n{\n    public function f(): void { new Near(); }\n}\n`,
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    expect(phpProblems(root)).toEqual({
      long: [['A/Long.php', 6, 'tooLong', 103]],
      circles: [
        ['A/Far.php', 'A/Near.php'],
        ['A/One.php', 'B/Two.php'],
      ],
    });
  });
});
