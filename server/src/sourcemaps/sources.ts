// A map's `sources` as the project-relative paths a card shows: bundler prefixes removed
// (`webpack://<name>/`, `turbopack:///[project]/`, Vite's `/@fs/`, Next's `(rsc)/` layers), query
// and fragment dropped, leading `./` and `../` dropped (a map's relative sources climb from the
// build's output folder to the project: `../../src/App.tsx` of `dist/assets/` is `src/App.tsx`;
// the runtime's uploader sends them project-relative already), dependencies cut to
// `node_modules/<package>/...`. A source that would name a place outside the project (a `..`
// after the leading ones, an absolute path outside node_modules) is refused: maps are not trusted.

/** A source the service refuses, with the reason shown in the 422. */
export class SourceError extends Error {
  override name = 'SourceError';
}

export interface NormalisedSource {
  /** Project-relative path, or null for a source that names no file (`webpack://app/?1234`). */
  path: string | null;
  /** Dependency or bundler code (node_modules, the map's `ignoreList`, bundler runtimes). */
  dependency: boolean;
}

const SCHEME = /^([a-z][\w+.-]*):\/\/([^/]*)/i;
const WINDOWS_ABSOLUTE = /^[a-z]:\//i;
/** Bundler runtime sources: webpack's bootstrap and runtime modules, Turbopack's, Vite's helpers. */
const BUNDLER_CODE = /^(?:webpack\/|\(webpack\)\/|\[turbopack\]\/|\[externals\]\/|vite\/|__vite-)/;

/** Cuts a path at its last `node_modules/` segment (npm, pnpm and hoisted installs alike). */
export function fromNodeModules(path: string): string | undefined {
  const at = path.lastIndexOf('/node_modules/');
  if (at !== -1) return path.slice(at + 1);
  return path.startsWith('node_modules/') ? path : undefined;
}

/**
 * The project-relative path of one `sources` entry of a map. Throws `SourceError` for a source
 * outside the project.
 */
export function normaliseSource(raw: string, sourceRoot: string): NormalisedSource {
  let source = raw.replaceAll('\\', '/');
  if (source.startsWith('\0')) return internal(source.slice(1));
  if (sourceRoot && !SCHEME.test(source) && !source.startsWith('/')) {
    source = sourceRoot.replaceAll('\\', '/').replace(/\/?$/, '/') + source;
  }
  const scheme = SCHEME.exec(source);
  if (scheme && scheme[1]!.toLowerCase() !== 'file') {
    // A bundler URL or a served URL: the part after the host is already project-relative.
    const rest = withoutQuery(source.slice(scheme[0].length));
    return relative(stripPrefixes(decoded(rest).replace(/^\/+/, '')), raw);
  }
  let path = withoutQuery(scheme ? decoded(source.slice(scheme[0].length)) : source);
  if (path.startsWith('/@fs/')) path = path.slice(4);
  if (path.startsWith('/') || WINDOWS_ABSOLUTE.test(path)) {
    const dependency = fromNodeModules(path);
    if (dependency) return { path: checked(dependency, raw), dependency: true };
    throw new SourceError(
      `A source may not be an absolute path outside node_modules: ${clip(raw)}. ` +
        'Build the map with sources relative to it.',
    );
  }
  return relative(path, raw);
}

/** Marks the sources of the map's `ignoreList` (and `x_google_ignoreList`) as dependencies. */
export function ignoredSources(map: Record<string, unknown>, count: number): Set<number> {
  const list = Array.isArray(map.ignoreList)
    ? map.ignoreList
    : Array.isArray(map.x_google_ignoreList)
      ? map.x_google_ignoreList
      : [];
  const out = new Set<number>();
  for (const index of list) {
    if (Number.isInteger(index) && (index as number) >= 0 && (index as number) < count) {
      out.add(index as number);
    }
  }
  return out;
}

function relative(path: string, raw: string): NormalisedSource {
  const dependency = fromNodeModules(path);
  if (dependency) return { path: checked(dependency, raw), dependency: true };
  const trimmed = path.replace(/^(?:\.\.?\/)+/, '');
  if (!trimmed) return { path: null, dependency: true };
  return { path: checked(trimmed, raw), dependency: BUNDLER_CODE.test(trimmed) };
}

/** A bundler's virtual module (Rollup's `\0commonjsHelpers.js`): never project code. */
const internal = (name: string): NormalisedSource => ({ path: name || null, dependency: true });

/** Turbopack's `[project]/`, Next's webpack layers (`(rsc)/`, `(ssr)/`), leading `./` and `../`. */
function stripPrefixes(path: string): string {
  return path.replace(/^(?:\[project\]\/|\([\w-]+\)\/)?(?:\.\.?\/)*/, '');
}

/** Refuses a `..` segment left inside the path; `.` and empty segments collapse. */
function checked(path: string, raw: string): string {
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) {
    throw new SourceError(`A source may not contain a ".." segment: ${clip(raw)}.`);
  }
  return segments.join('/');
}

function withoutQuery(path: string): string {
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

function decoded(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

const clip = (s: string) => JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);
