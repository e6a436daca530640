// The browser's map lookup, on @jridgewell/sourcemap-codec (ESM). source-map-js is CommonJS, and
// any CommonJS module in the browser graph makes esbuild put its interop helper in a chunk that
// every page loads at start-up. Node keeps source-map-js (./sourcemap.ts `parseMap`).
import { decode } from '@jridgewell/sourcemap-codec';
import { type Lookup, mapJson, type Original } from './sourcemap.ts';

/**
 * Parses a map's JSON text into a lookup with source-map-js's results: the mapping at or before
 * the column on that line (greatest lower bound), else the first one after it (least upper bound);
 * `sourceRoot` joined to the source with a `/`. Throws on text that is not a source map.
 */
export function decodeMap(text: string): Lookup {
  const raw = mapJson(text) as {
    mappings?: unknown;
    sources?: unknown;
    sourceRoot?: unknown;
    names?: unknown;
  };
  if (typeof raw?.mappings !== 'string' || !Array.isArray(raw.sources))
    throw new Error('not a source map');
  const sources = raw.sources as unknown[];
  const names = Array.isArray(raw.names) ? (raw.names as unknown[]) : [];
  let root = typeof raw.sourceRoot === 'string' ? raw.sourceRoot : '';
  const lines = decode(raw.mappings);
  return (line, column) => {
    const segments = lines[line - 1] ?? [];
    const col = Math.max(0, column - 1);
    let at: number[] | undefined;
    for (const s of segments) if (s[0] <= col) at = s;
    if (!at || at.length < 4) at = segments.find((s) => s[0] >= col);
    if (!at || at.length < 4) return undefined;
    const source = sources[at[1] as number];
    if (typeof source !== 'string') return undefined;
    if (root && !root.endsWith('/') && !source.startsWith('/')) root += '/';
    const found: Original = {
      source: root + source,
      line: (at[2] as number) + 1,
      column: (at[3] as number) + 1,
    };
    const name = names[at[4] as number];
    if (typeof name === 'string') found.name = name;
    return found;
  };
}
