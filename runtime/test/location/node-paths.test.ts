import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { detectRoot, setProjectRoot, toProjectPath } from '../../src/location/node-paths.ts';

let dir: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'svc-location-root-')));
  await mkdir(join(dir, 'app/dist/server'), { recursive: true });
  await mkdir(join(dir, 'app/node_modules/next/dist/bin'), { recursive: true });
  await writeFile(join(dir, 'app/package.json'), '{}');
  await writeFile(join(dir, 'app/dist/server/main.js'), '');
  await writeFile(join(dir, 'app/node_modules/next/package.json'), '{}');
  await writeFile(join(dir, 'app/node_modules/next/dist/bin/next'), '');
  await mkdir(join(dir, 'app/.output/server'), { recursive: true });
  await writeFile(join(dir, 'app/.output/server/package.json'), '{"name":"nuxt-app-prod"}');
  await writeFile(join(dir, 'app/.output/server/index.mjs'), '');
  await mkdir(join(dir, 'app/apps/shop/src'), { recursive: true });
  await writeFile(join(dir, 'app/apps/shop/package.json'), '{}');
  await mkdir(join(dir, 'shipped/.output/server'), { recursive: true });
  await writeFile(join(dir, 'shipped/.output/server/package.json'), '{}');
  await writeFile(join(dir, 'shipped/.output/server/index.mjs'), '');
});

afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(() => setProjectRoot(undefined));

describe('detectRoot', () => {
  it('is the nearest package.json directory above the entry script', () => {
    expect(detectRoot(join(dir, 'app/dist/server/main.js'))).toBe(join(dir, 'app'));
  });

  it('is the directory holding node_modules when the entry is a dependency CLI', () => {
    expect(detectRoot(join(dir, 'app/node_modules/next/dist/bin/next'))).toBe(join(dir, 'app'));
  });

  it('a dependency CLI run in a workspace of a monorepo: that workspace (next start in apps/shop)', () => {
    const cli = join(dir, 'app/node_modules/next/dist/bin/next');
    expect(detectRoot(cli, join(dir, 'app/apps/shop'))).toBe(join(dir, 'app/apps/shop'));
    expect(detectRoot(cli, join(dir, 'app/apps/shop/src'))).toBe(join(dir, 'app/apps/shop'));
    expect(detectRoot(cli, join(dir, 'app'))).toBe(join(dir, 'app'));
    expect(detectRoot(cli, join(dir, 'shipped'))).toBe(join(dir, 'app')); // run from elsewhere
  });

  it('looks past build output folders with their own package.json (Nuxt .output/server)', () => {
    expect(detectRoot(join(dir, 'app/.output/server/index.mjs'))).toBe(join(dir, 'app'));
  });

  it('keeps the build output folder when nothing above it is a package', () => {
    expect(detectRoot(join(dir, 'shipped/.output/server/index.mjs'))).toBe(
      join(dir, 'shipped/.output/server'),
    );
  });

  it('falls back to the working directory', () => {
    expect(detectRoot(undefined)).toBe(process.cwd());
    expect(detectRoot(join(dir, 'missing.js'))).toBe(process.cwd());
  });
});

describe('toProjectPath', () => {
  it('strips the root from paths and file:// URLs', () => {
    setProjectRoot(join(dir, 'app'));
    expect(toProjectPath(join(dir, 'app/src/a.ts'))).toBe('src/a.ts');
    expect(toProjectPath(pathToFileURL(join(dir, 'app/src/b c.ts')).href)).toBe('src/b c.ts');
  });

  it('reports node_modules files from their node_modules segment, even outside the root', () => {
    setProjectRoot(join(dir, 'app'));
    expect(toProjectPath('/elsewhere/node_modules/lib/index.js')).toBe('node_modules/lib/index.js');
  });

  it('never returns an absolute path for files outside the root', () => {
    setProjectRoot(join(dir, 'app'));
    expect(toProjectPath(join(dir, 'shared/x.ts'))).toBe('../shared/x.ts');
  });

  it('turns webpack:// and http URLs into relative paths', () => {
    expect(toProjectPath('webpack://app/./src/page.tsx')).toBe('src/page.tsx');
  });
});
