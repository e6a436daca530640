// The browser location capture proper (a lazy chunk, see ./browser.ts): throw site or call site;
// source maps (opt-in) via a lazily loaded resolver.
import { laterStack } from './later-stack.ts';
import { fileUrlToPath, unmappedPath, urlToPath } from './paths.ts';
import { callSites, throwSite } from './site.ts';
import type { Frame } from './stack.ts';
import type { Location, LocationOptions } from './types.ts';

/**
 * For an Error description without `sourceMaps`: synchronous, the script URL's path. Otherwise the
 * call site held by `holder` (captured in the reporting call), formatted and parsed in a microtask
 * (a promise). With `sourceMaps: true` the resolver module is imported on first use (clients
 * without source maps never load it); it fetches the chunk's map with a timeout and a size cap and
 * resolves with the original location, or with the unresolved one on any failure. Never throws,
 * never rejects.
 */
export function locateReport(
  description: unknown,
  holder: { stack?: string } | undefined,
  options: LocationOptions,
): Location | Promise<Location> | undefined {
  try {
    const thrown = throwSite(description);
    if (thrown) return locate([thrown], options);
    if (!holder) return undefined;
    return laterStack(holder)
      .then((stack) => locate(callSites(stack), options) ?? {})
      .catch(() => ({}));
  } catch {
    return undefined;
  }
}

function locate(
  frames: Frame[],
  options: LocationOptions,
): Location | Promise<Location> | undefined {
  const [first] = frames;
  if (!first) return undefined;
  const unresolved = toLocation(first, false, options);
  if (!options.sourceMaps || options.uploadedSourceMaps) return unresolved;
  return loadResolver()
    .then((maps) => maps.resolveFrames(frames))
    .then((frame) => (frame ? toLocation(frame, !frames.includes(frame), options) : unresolved))
    .catch(() => unresolved);
}

let resolver: Promise<typeof import('./browser-maps.ts')> | undefined;

/** The resolver chunk, imported once (a repeated `import()` costs ~0.25 ms in Chromium). */
function loadResolver(): Promise<typeof import('./browser-maps.ts')> {
  if (!resolver) {
    resolver = import('./browser-maps.ts');
    resolver.catch(() => {
      resolver = undefined; // a failed chunk load is retried by a later report
    });
  }
  return resolver;
}

/** A mapped frame's original path, else the chunk's (`unmappedPath`: its content hash written `[hash]`). */
function toLocation(frame: Frame, mapped: boolean, options: LocationOptions): Location {
  const path = urlToPath(frame.file) ?? fileUrlToPath(frame.file) ?? frame.file;
  const location: Location = { file_name: mapped ? path : unmappedPath(path, options) };
  if (options.lineNumbers) location.line_number = frame.line;
  return location;
}
