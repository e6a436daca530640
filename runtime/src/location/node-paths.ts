// Node: the app's root directory and project-relative file names.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromNodeModules, urlToPath, withoutHash } from './paths.ts';

let root: string | undefined;

/**
 * The app root that `file_name` is relative to: the nearest directory holding a `package.json`
 * above the entry script (`process.argv[1]`), not counting build output folders such as
 * `.output/server` (see `BUILD_OUTPUT`). When the entry script lives in `node_modules` (a CLI such
 * as `next start`), the app is the one the CLI runs in: the nearest `package.json` above the working
 * directory when that is inside the folder holding the `node_modules` (a workspace of a monorepo),
 * else that folder. Falls back to `process.cwd()` (a physical path: no symlink to resolve).
 * Computed once, at the first capture.
 */
export function projectRoot(): string {
  if (root === undefined) root = detectRoot(process.argv[1]);
  return root;
}

/** Test seam: forget (or force) the detected root. */
export function setProjectRoot(value: string | undefined): void {
  root = value;
  names.clear();
}

/**
 * Build output folders that carry their own `package.json` (Nuxt's `.output/server`, Next's
 * `.next/standalone`): the app root is above them, so their maps' `../../server/x.ts` sources
 * come out as `server/x.ts`.
 */
const BUILD_OUTPUT = /[\\/](?:\.output|\.next|\.nuxt|\.svelte-kit|\.vercel|\.netlify)(?:[\\/]|$)/;

export function detectRoot(entry: string | undefined, cwd = process.cwd()): string {
  try {
    if (entry) {
      const real = realpathSync(entry);
      const nm = real.indexOf(`${sep}node_modules${sep}`);
      if (nm === -1) return packageDir(dirname(real)) ?? cwd;
      const holder = real.slice(0, nm) || sep;
      const inside = cwd.startsWith(holder === sep ? sep : holder + sep);
      return (inside && packageDir(cwd, holder)) || holder;
    }
  } catch {
    // unreadable entry: fall back below
  }
  return cwd;
}

/** The nearest folder from `start` up (to `stop` at most) with a `package.json`, past build output. */
function packageDir(start: string, stop?: string): string | undefined {
  let first: string | undefined;
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      if (!BUILD_OUTPUT.test(dir)) return dir;
      first ??= dir;
    }
    if (dir === stop || dirname(dir) === dir) break;
  }
  return first;
}

/** Absolute path of a frame's file (`file://` URL or path), or `undefined` for other URLs. */
export function toFsPath(file: string): string | undefined {
  if (!file.startsWith('file://')) return isAbsolute(file) ? file : undefined;
  let path = fsPaths.get(file);
  if (path === undefined) {
    try {
      path = fileURLToPath(file);
    } catch {
      path = '';
    }
    if (fsPaths.size >= NAMES_MAX) fsPaths.clear();
    fsPaths.set(file, path);
  }
  return path || undefined;
}

const fsPaths = new Map<string, string>();

/** Frame file -> `file_name`, so repeated reports from one place skip the path work. */
const names = new Map<string, string>();
const NAMES_MAX = 1000;

/** Project-relative `file_name` for a frame's file (path, `file://` URL or other URL). */
export function toProjectPath(file: string): string {
  let name = names.get(file);
  if (name === undefined) {
    if (names.size >= NAMES_MAX) names.clear();
    name = projectPath(file);
    names.set(file, name);
  }
  return name;
}

function projectPath(file: string): string {
  const abs = toFsPath(file);
  if (abs === undefined) return urlToPath(file) ?? file;
  const slashed = abs.split(sep).join('/');
  const name = fromNodeModules(slashed) ?? relative(projectRoot(), abs).split(sep).join('/');
  return name;
}

/** A project-relative path inside a build output folder. */
const BUILT = /^(?:\.output|\.next|\.nuxt|\.svelte-kit|\.vercel|\.netlify)\//;

/** `node_modules/next/` of `node_modules/next/dist/x.js` (`node_modules/@scope/pkg/` when scoped). */
const PACKAGE_ROOT = /^node_modules\/(?:@[^/]+\/)?[^/]+\//;

/**
 * The project-relative place of a mapped frame (`mapped`: the original source, a path or a URL)
 * whose generated code is `generated`. A dependency's own map often names its sources relative to
 * the package (Next: `webpack://next/./src/server/...`); those read as the package's files
 * (`node_modules/next/src/server/...`), never as the app's own code.
 */
export function mappedProjectPath(mapped: string, generated: string): string {
  const name = toProjectPath(mapped);
  if (name.startsWith('node_modules/')) return name;
  // Still a build's own output (Vite's SSR chunk under `.nuxt/`, where its map says nothing of a
  // wrapper it generated): hashed like an unmapped frame, so every build names it alike.
  if (BUILT.test(name)) return withoutHash(name);
  const pkg = PACKAGE_ROOT.exec(toProjectPath(generated))?.[0];
  return pkg ? pkg + name.replace(/^(?:\.\.?\/|\/)+/, '') : name;
}
