// The fresh app of the pack test: every public package packed with `npm pack`, the tarballs
// installed into a temp dir outside the repository with the frameworks the READMEs name.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { badEngines } from '@svc/testkit';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const run = promisify(execFile);

/** The public packages, in publish order (each depends only on those before it). */
export const PACKAGES = [
  'runtime',
  'server',
  'integrations/express',
  'integrations/vite',
  'integrations/next',
  'integrations/nuxt',
  'integrations/hono',
  'integrations/sveltekit',
  'integrations/react-router',
] as const;

/** What a user of each integration has installed beside it (versions as checked in this repo). */
export const FRAMEWORKS = [
  'express@5.3.0',
  '@types/express@5.0.6',
  'vite@8.3.8',
  'react@19.3.1',
  'react-dom@19.3.1',
  '@types/react@19.3.0',
  'vue@3.5.45',
  'next@16.4.6',
  '@nuxt/schema@4.5.2',
  'hono@4.13.19',
  // The newest kit that accepts the TypeScript above (kit 3 wants TypeScript 6; the matrix tests
  // kit 3.2 in the app `sv create` makes), and the React Router create-react-router 8.4 asks for.
  '@sveltejs/kit@2.70.4',
  'react-router@8.4.0',
  'esbuild@0.28.2',
  'typescript@5.9.3',
  '@types/node@20.19.43',
];

export interface Packed {
  dir: string;
  name: string;
  version: string;
  tarball: string;
  files: string[];
  manifest: Record<string, any>;
}

/** `npm pack` of one package into `dest`. */
export async function pack(dir: string, dest: string): Promise<Packed> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dest], {
    cwd: join(ROOT, dir),
    maxBuffer: 1 << 24,
  });
  const [info] = JSON.parse(stdout);
  return {
    dir,
    name: info.name,
    version: info.version,
    tarball: join(dest, info.filename),
    files: info.files.map((f: { path: string }) => f.path),
    manifest: JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')),
  };
}

/**
 * A fresh app in a temp dir with the tarballs and the frameworks installed; returns it and the
 * packages npm warned about for their `engines` on the Node that runs the test (Node 24).
 */
export async function freshApp(packed: Packed[]): Promise<{ app: string; badEngines: string[] }> {
  const app = mkdtempSync(join(tmpdir(), 'svc-fresh-app-'));
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }, null, 2)}\n`,
  );
  // No install scripts: the only one that matters is better-sqlite3's native build (about two
  // minutes of compiling here, where its prebuilt binaries cannot be downloaded). The repository's
  // build of the same version, for the same Node, is copied in instead.
  const install = await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      ...packed.map((p) => p.tarball),
      ...FRAMEWORKS,
    ],
    { cwd: app, maxBuffer: 1 << 26 },
  );
  const sqlite = (root: string) => join(root, 'node_modules', 'better-sqlite3');
  const version = (root: string) =>
    JSON.parse(readFileSync(join(sqlite(root), 'package.json'), 'utf8')).version;
  if (version(app) !== version(ROOT)) throw new Error('better-sqlite3 differs from the repository');
  cpSync(join(sqlite(ROOT), 'build'), join(sqlite(app), 'build'), { recursive: true });
  return { app, badEngines: badEngines(install.stdout + install.stderr) };
}
