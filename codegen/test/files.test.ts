import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staleFiles, writeFiles } from '../src/files.ts';

const DIRS = ['a/generated', 'b/generated'];
const artifacts = [
  { path: 'a/generated/one.gen.ts', text: 'export const one = 1;\n' },
  { path: 'b/generated/two.gen.ts', text: 'export const two = 2;\n' },
];

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-files-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('staleFiles / writeFiles', () => {
  it('reports missing files, writes them, then reports nothing', async () => {
    expect(await staleFiles(root, DIRS, artifacts)).toEqual([
      'a/generated/one.gen.ts',
      'b/generated/two.gen.ts',
    ]);
    expect(await writeFiles(root, DIRS, artifacts)).toEqual([
      'a/generated/one.gen.ts',
      'b/generated/two.gen.ts',
    ]);
    expect(await staleFiles(root, DIRS, artifacts)).toEqual([]);
    expect(await readFile(join(root, 'a/generated/one.gen.ts'), 'utf8')).toBe(
      'export const one = 1;\n',
    );
  });

  it('flags an edited file and a leftover *.gen.ts, but leaves other files alone', async () => {
    await writeFiles(root, DIRS, artifacts);
    await writeFile(join(root, 'a/generated/one.gen.ts'), 'export const one = 11;\n');
    await writeFile(join(root, 'b/generated/gone.gen.ts'), '');
    await writeFile(join(root, 'b/generated/README.md'), 'hand-written');
    expect(await staleFiles(root, DIRS, artifacts)).toEqual([
      'a/generated/one.gen.ts',
      'b/generated/gone.gen.ts',
    ]);
    expect(await writeFiles(root, DIRS, artifacts)).toEqual([
      'a/generated/one.gen.ts',
      'b/generated/gone.gen.ts',
    ]);
    await expect(stat(join(root, 'b/generated/gone.gen.ts'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(root, 'b/generated/README.md'), 'utf8')).toBe('hand-written');
  });

  it('does not rewrite unchanged files', async () => {
    await mkdir(join(root, 'a/generated'), { recursive: true });
    await writeFile(join(root, 'a/generated/one.gen.ts'), artifacts[0]!.text);
    expect(await writeFiles(root, DIRS, artifacts)).toEqual(['b/generated/two.gen.ts']);
  });
});
