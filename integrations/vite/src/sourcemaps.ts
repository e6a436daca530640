/**
 * Inline classic script (it runs before any module script) that registers each chunk's hidden map
 * in `globalThis[Symbol.for('svc.sourcemaps')]`: chunk URL pathname -> map URL, resolved against
 * the page so relative `base` settings work too.
 */
export function registryScript(maps: Record<string, string>, base: string): string {
  return (
    `(function(m,b){var r=globalThis[Symbol.for('svc.sourcemaps')]=globalThis[Symbol.for('svc.sourcemaps')]||{};` +
    `for(var f in m){try{r[new URL(b+f,document.baseURI).pathname]=new URL(b+m[f],document.baseURI).pathname}catch(e){}}})` +
    `(${JSON.stringify(maps)},${JSON.stringify(base)})`
  );
}

interface ChunkLike {
  type: string;
  fileName: string;
  sourcemapFileName?: string | null;
  map?: unknown;
}

/** Chunk file -> map file, for every chunk that has a map. */
export function chunkMaps(bundle: Record<string, ChunkLike>): Record<string, string> {
  const maps: Record<string, string> = {};
  for (const item of Object.values(bundle)) {
    if (item.type !== 'chunk' || !item.map) continue;
    maps[item.fileName] = item.sourcemapFileName ?? `${item.fileName}.map`;
  }
  return maps;
}
