// Compares generated artifacts with the files on disk (--check) and writes them (default), removing
// stale `*.gen.ts` / `*.gen.php` files the generator no longer produces.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Artifact } from './emit/common.ts';

async function readOrNull(path: string): Promise<string | null> {
  return readFile(path, 'utf8').catch(() => null);
}

async function orphans(root: string, dirs: string[], artifacts: Artifact[]): Promise<string[]> {
  const wanted = new Set(artifacts.map((a) => a.path));
  const found: string[] = [];
  for (const dir of dirs) {
    const names = await readdir(join(root, dir)).catch(() => [] as string[]);
    for (const name of names) {
      const path = `${dir}/${name}`;
      if (/\.gen\.(ts|php)$/.test(name) && !wanted.has(path)) found.push(path);
    }
  }
  return found;
}

/** Repo-relative paths of every file that differs from fresh output, is missing, or is orphaned. */
export async function staleFiles(
  root: string,
  dirs: string[],
  artifacts: Artifact[],
): Promise<string[]> {
  const stale: string[] = [];
  for (const a of artifacts) {
    if ((await readOrNull(join(root, a.path))) !== a.text) stale.push(a.path);
  }
  return [...stale, ...(await orphans(root, dirs, artifacts))].sort();
}

/** Writes changed artifacts and removes orphans; returns the paths touched. */
export async function writeFiles(
  root: string,
  dirs: string[],
  artifacts: Artifact[],
): Promise<string[]> {
  const touched: string[] = [];
  for (const a of artifacts) {
    const path = join(root, a.path);
    if ((await readOrNull(path)) === a.text) continue;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, a.text);
    touched.push(a.path);
  }
  for (const path of await orphans(root, dirs, artifacts)) {
    await rm(join(root, path));
    touched.push(path);
  }
  return touched;
}
