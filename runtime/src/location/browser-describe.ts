// The browser's renderer of titles and descriptions (a lazy chunk, loaded on the first non-string
// value): `core/describe.ts` with each stack frame written as a project-relative place (the URL's
// path), resolved through the chunk's source map with `sourceMaps` on (./browser-maps.ts, itself a
// lazy chunk, the same maps that give `file_name`).
import { describe as text } from '../core/describe.ts';
import { describeWithFrames, type ResolveFrame } from './frames.ts';
import { fileUrlToPath, unmappedPath, urlToPath } from './paths.ts';
import type { LocationOptions } from './types.ts';

type Maps = typeof import('./browser-maps.ts');

let maps: Maps | undefined;
let loading: Promise<Maps> | undefined;

/** The resolver chunk, imported once; a failed load is retried by a later report. */
function loadMaps(): Promise<Maps> {
  loading ??= import('./browser-maps.ts').then((chunk) => (maps = chunk));
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

const relative = (url: string) => urlToPath(url) ?? fileUrlToPath(url) ?? url;

/** Maps are fetched with `sourceMaps`, unless the build uploaded them (none is served then). */
function resolver(options: LocationOptions): ResolveFrame {
  const fetchMaps = options.sourceMaps && !options.uploadedSourceMaps;
  return (frame, wait) => {
    if (fetchMaps && /^https?:/i.test(frame.file)) {
      const mapped = maps?.mapFrame(frame, frame.name);
      if (mapped === undefined && wait) return undefined;
      if (mapped) return { ...mapped, file: relative(mapped.file) };
    }
    const file = unmappedPath(relative(frame.file), options);
    return { file, line: frame.line, column: frame.column };
  };
}

/**
 * A title's text (no `options`), or a description's with its frames rewritten: synchronous unless
 * `sourceMaps` is on and a chunk's map is not known yet (then a promise, settled within the map
 * resolver's time limit). Never throws; the promise never rejects.
 */
export function describe(
  value: unknown,
  options?: LocationOptions,
): string | undefined | Promise<string | undefined> {
  if (!options) return text(value);
  return describeWithFrames(value, resolver(options), (urls) =>
    loadMaps().then((chunk) => chunk.warm(urls)),
  );
}
