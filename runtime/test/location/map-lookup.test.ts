import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SourceMapConsumer } from 'source-map-js';
import { describe, expect, it } from 'vitest';
import { decodeMap } from '../../src/location/map-lookup.ts';
import { type Original, parseMap } from '../../src/location/sourcemap.ts';

// The browser's lookup (sourcemap-codec) must give what Node's (source-map-js) gives (source, line,
// column and name), for every
// position of a real minified bundle's map, with and without a sourceRoot, once resolved against
// the map's URL as the resolver does (source-map-js also normalizes `..` in the joined path; URL
// resolution does the same).
const BASE = 'https://cdn.example/assets/index.js.map';
const resolved = (p: Original | undefined) =>
  p && { file: new URL(p.source, BASE).href, line: p.line, column: p.column, name: p.name };
async function realMap() {
  const entry = fileURLToPath(new URL('../../src/core/payload.ts', import.meta.url));
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    sourcemap: 'external',
    write: false,
    outdir: '/virtual',
  });
  const code = out.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '';
  const map = out.outputFiles.find((f) => f.path.endsWith('.map'))?.text ?? '';
  return { code, map };
}

describe('decodeMap', () => {
  it('agrees with source-map-js at every position of a minified bundle', async () => {
    const { code, map } = await realMap();
    const withRoot = JSON.stringify({ ...JSON.parse(map), sourceRoot: 'https://x.example/app' });
    for (const text of [map, withRoot, `)]}'\n${map}`]) {
      const ours = decodeMap(text);
      const ref = parseMap(text, SourceMapConsumer);
      const lines = code.split('\n');
      let compared = 0;
      const seen = new Set<string>();
      for (let l = 1; l <= lines.length + 1; l++)
        for (let c = 1; c <= (lines[l - 1]?.length ?? 0) + 2; c++) {
          expect(resolved(ours(l, c)), `${l}:${c}`).toEqual(resolved(ref(l, c)));
          compared++;
          const hit = ours(l, c);
          if (hit) seen.add(hit.source);
        }
      expect(compared).toBeGreaterThan(500);
      expect([...seen].some((src) => /core\/payload\.ts$/.test(src))).toBe(true);
    }
  });

  it('throws on text that is not a source map', () => {
    expect(() => decodeMap('{"version":3}')).toThrow();
    expect(() => decodeMap('<html>')).toThrow();
  });
});
