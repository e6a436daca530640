// A map's `sources` as the project-relative paths the Node SDK gives the same files
// (`src/App.tsx`, `app/page.tsx`, `node_modules/react-dom/...`), whatever the bundler wrote:
// paths relative to the map, absolute paths, `file://` URLs, `webpack://_N_E/./app/page.tsx`,
// `turbopack:///[project]/app/page.tsx`, `sourceRoot`. The service then needs no knowledge of
// where the build ran, and a source never climbs out of the project (`..`) or names the build host.
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { fromNodeModules, urlToPath } from '../location/paths.ts';

const SCHEME = /^[a-z][\w+.-]*:/i;

/** Absolute path of a source written as a plain path or a `file://` URL; undefined for other URLs. */
function sourceFile(source: string, mapDir: string): string | undefined {
  if (source.startsWith('file://')) {
    try {
      return fileURLToPath(source);
    } catch {
      return undefined;
    }
  }
  if (SCHEME.test(source) && !/^[a-z]:[\\/]/i.test(source)) return undefined;
  let path = source;
  try {
    path = decodeURIComponent(source);
  } catch {
    // a literal `%` in a plain path
  }
  return isAbsolute(path) ? path : resolve(mapDir, path);
}

/**
 * A bundler URL's path relative to the bundler's root, as a path relative to the project: the
 * root is the project, or in a monorepo a folder above it (Turbopack's `[project]` is the
 * workspace root: `[project]/apps/web/app/page.tsx`), found as the nearest folder above the
 * project that holds the file. At build time the sources are on disk.
 */
function fromWorkspace(path: string, projectRoot: string, virtual: boolean): string {
  if (
    virtual ||
    path.startsWith('node_modules/') ||
    isAbsolute(path) ||
    existsSync(join(projectRoot, path))
  )
    return path;
  for (let dir = dirname(projectRoot); dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, path);
    if (existsSync(candidate)) return relative(projectRoot, candidate).split(sep).join('/');
  }
  return path;
}

/**
 * One source as a project-relative path: a file under `projectRoot` relative to it, a dependency
 * from its last `node_modules/`, a bundler URL without its scheme and prefixes; what still climbs
 * out of the project loses its leading `../`, and a virtual module (`\0vite/preload-helper`) its
 * NUL. `null` stays `null`.
 */
export function projectSource(
  source: string | null,
  mapDir: string,
  projectRoot: string,
): string | null {
  if (typeof source !== 'string') return null;
  // A virtual module (`\0vite/preload-helper.js`) is no file: its name as it is, without the NUL.
  const virtual = source.startsWith('\0');
  const clean = source.replace(/\0/g, '');
  const file = virtual ? undefined : sourceFile(clean, mapDir);
  let path: string;
  if (file === undefined) path = fromWorkspace(urlToPath(clean) ?? clean, projectRoot, virtual);
  else {
    const slashed = file.split(sep).join('/');
    path = fromNodeModules(slashed) ?? relative(projectRoot, file).split(sep).join('/');
  }
  const normal = posix.normalize(path).replace(/^(?:\.\.?\/)+/, '');
  return normal === '.' || normal === '..' ? '' : normal;
}

/**
 * The map with every source made project-relative (`sourceRoot` applied, then dropped): the
 * service reads a plain relative source as a path from the project root (it drops leading `../`,
 * since served paths seldom keep the build's output folder). An index map's sections are
 * rewritten the same way. Other fields are kept as they are.
 */
export function withProjectSources(
  map: Record<string, unknown>,
  mapDir: string,
  projectRoot: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...map };
  if (Array.isArray(map.sections)) {
    out.sections = map.sections.map((section: unknown) => {
      const inner = (section as { map?: unknown })?.map;
      if (!inner || typeof inner !== 'object') return section;
      return {
        ...(section as object),
        map: withProjectSources(inner as Record<string, unknown>, mapDir, projectRoot),
      };
    });
  }
  if (!Array.isArray(map.sources)) return out;
  const root = typeof map.sourceRoot === 'string' ? map.sourceRoot : '';
  const joined = (source: string) =>
    root === '' || SCHEME.test(source) || source.startsWith('/')
      ? source
      : `${root.replace(/\/?$/, '/')}${source}`;
  out.sources = map.sources.map((source: unknown) =>
    typeof source === 'string'
      ? projectSource(
          joined(source),
          sourceBase(joined(source), root, mapDir, projectRoot),
          projectRoot,
        )
      : null,
  );
  delete out.sourceRoot;
  return out;
}

/**
 * The folder a relative source (its `sourceRoot` applied) is read from: the map's, as the spec
 * says; but the project root when the `sourceRoot` is relative and only from there names a file
 * on disk (wrangler writes its `--outdir` as given, relative to where it ran: `dist` with
 * `../src/index.ts`, which beside the map would be `dist/dist/../src/index.ts`).
 */
function sourceBase(source: string, root: string, mapDir: string, projectRoot: string): string {
  if (root === '' || SCHEME.test(root) || isAbsolute(root) || isAbsolute(source)) return mapDir;
  if (SCHEME.test(source) || existsSync(resolve(mapDir, source))) return mapDir;
  return existsSync(resolve(projectRoot, source)) ? projectRoot : mapDir;
}
