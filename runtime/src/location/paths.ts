// Turning a frame's URL or path into the project-relative `file_name` of the wire (no node: imports).

/** Cuts a path at its last `node_modules/` segment: the same name for npm, pnpm and hoisted installs. */
export function fromNodeModules(path: string): string | undefined {
  if (path.startsWith('node_modules/')) return path;
  const at = path.lastIndexOf('/node_modules/');
  return at === -1 ? undefined : path.slice(at + 1);
}

/**
 * A URL (http(s), or a bundler scheme such as `webpack://app/`) as a project-relative path: the
 * origin, query (Vite's `?t=`) and hash are dropped, and Vite dev's `/@fs/` prefix too.
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
  return fromNodeModules(path) ?? path.replace(/^\/+/, '').replace(/^(?:\.\/)+/, '');
}
