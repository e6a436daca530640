// Turning a frame's URL or path into the project-relative `file_name` of the wire (no node: imports).

/** Cuts a path at its last `node_modules/` segment: the same name for npm, pnpm and hoisted installs. */
export function fromNodeModules(path: string): string | undefined {
  if (path.startsWith('node_modules/')) return path;
  const at = path.lastIndexOf('/node_modules/');
  return at === -1 ? undefined : path.slice(at + 1);
}

/**
 * A URL (http(s), or a bundler scheme such as `webpack://app/`) as a project-relative path: the
 * origin, query (Vite's `?t=`) and hash are dropped, and so are Vite dev's `/@fs/`, Turbopack's
 * `[project]/` and Next's webpack layer (`(rsc)/`) prefixes and leading `./` and `../`.
 * Returns `undefined` for strings that are not URLs.
 */
export function urlToPath(url: string): string | undefined {
  const scheme = /^([a-z][\w+.-]*):\/\/[^/]*/i.exec(url);
  if (!scheme || scheme[1].toLowerCase() === 'file') return undefined;
  let path = url.slice(scheme[0].length).replace(/[?#].*$/, '');
  try {
    path = decodeURI(path);
  } catch {
    // keep the encoded form
  }
  path = path.replace(/^\/@fs\//, '/');
  return (
    fromNodeModules(path) ?? path.replace(/^\/*(?:\[project\]\/|\([\w-]+\)\/)?(?:\.\.?\/)*/, '')
  );
}

/**
 * A `file://` URL of a runtime without a file system API of ours (Deno, workerd: they load the
 * fetch-runtime build, which never reads a file, so Deno never asks for a permission) as a
 * project-relative path: cut at its last `node_modules/`, else relative to `root` (Deno: the
 * folder of the main module, `Deno.mainModule`, read without a permission), else, for a bundle
 * `wrangler dev` wrote (`/.wrangler/tmp/<build>/index.js`), its name in the build (`index.js`, as
 * a deployed Worker names it). Returns `undefined` for anything else (kept as printed).
 */
export function fileUrlToPath(url: string, root = mainModuleFolder()): string | undefined {
  if (!/^file:\/\//i.test(url)) return undefined;
  let path = url.replace(/^file:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  try {
    path = decodeURI(path);
  } catch {
    // keep the encoded form
  }
  const wrangler = /\/\.wrangler\/tmp\/[^/]+\/(.+)$/.exec(path);
  if (wrangler) return wrangler[1];
  const dependency = fromNodeModules(path);
  if (dependency) return dependency;
  if (root && path.startsWith(root)) return path.slice(root.length);
  return undefined;
}

/** The folder of Deno's main module as a path ending in `/` (`/app/`), else undefined. */
function mainModuleFolder(): string | undefined {
  try {
    const main = (globalThis as { Deno?: { mainModule?: unknown } }).Deno?.mainModule;
    if (typeof main !== 'string' || !/^file:\/\//i.test(main)) return undefined;
    return decodeURI(main.replace(/^file:\/\/[^/]*/i, '').replace(/[^/]*$/, ''));
  } catch {
    return undefined;
  }
}

/**
 * Content hashes in the names of generated files, for frames no source map resolves: Turbopack
 * (`[root-of-the-server]__21790f4towdem._.js`, `page_actions_076duzbaugpmy.js`: 13 characters after
 * `_`), Rollup / Vite / Rolldown (`index-B2x9sd8K.js`, `_nuxt/B2x9sd8K.js`: 8 characters after `-`
 * or alone) and webpack (`page-0a1b2c3d4e5f6a7b.js`, `0a1b2c3d.js`: 8 to 32 hex digits).
 */
const HASHES = [
  /(?<=_)(?=[\w-]{0,12}\d)[\w-]{13}(?=(?:\._)?\.[cm]?js$)/,
  /(?<=^|-)(?![a-z]{8}\.)[\w-]{8}(?=\.[cm]?js$)/,
  /(?<=^|[-.])(?=[a-f]{0,31}\d)[\da-f]{8,32}(?=\.[cm]?js$)/,
];

/**
 * A generated file's project-relative path with the content hash of its name written `[hash]`:
 * the same code from another build has the same name. Paths of other files are returned as is.
 */
export function withoutHash(path: string): string {
  const slash = path.lastIndexOf('/') + 1;
  const base = path.slice(slash);
  for (const hash of HASHES)
    if (hash.test(base)) return path.slice(0, slash) + base.replace(hash, '[hash]');
  return path;
}

/**
 * A frame's generated place that no map resolved here: with the build's maps uploaded to the
 * service (`uploadedSourceMaps`) the path as it is, so the service finds the chunk's map; else
 * with its content hash written `[hash]`.
 */
export function unmappedPath(path: string, options: { uploadedSourceMaps?: boolean }): string {
  return options.uploadedSourceMaps ? path : withoutHash(path);
}
