import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { chunkMaps, registryScript } from '../src/sourcemaps.ts';

describe('source-map registry', () => {
  it('lists chunks that have a map', () => {
    expect(
      chunkMaps({
        'assets/index-abc.js': {
          type: 'chunk',
          fileName: 'assets/index-abc.js',
          sourcemapFileName: 'assets/index-abc.js.map',
          map: {},
        },
        'assets/nomap.js': { type: 'chunk', fileName: 'assets/nomap.js', map: null },
        'assets/style.css': { type: 'asset', fileName: 'assets/style.css' },
      }),
    ).toEqual({ 'assets/index-abc.js': 'assets/index-abc.js.map' });
  });

  it('registers chunk pathname -> map pathname on the page global, for absolute and relative base', () => {
    const maps = { 'assets/a.js': 'assets/a.js.map' };
    for (const [base, baseURI, key] of [
      ['/', 'https://shop.example/checkout/', '/assets/a.js'],
      ['/app/', 'https://shop.example/', '/app/assets/a.js'],
      ['./', 'https://shop.example/sub/index.html', '/sub/assets/a.js'],
    ] as const) {
      const page: Record<string, unknown> = { document: { baseURI }, URL };
      // Symbol-keyed globals stay inside the vm context, so read the registry back from there.
      const read = "this.registry = globalThis[Symbol.for('svc.sourcemaps')]";
      runInNewContext(`${registryScript(maps, base)};${read}`, page);
      expect(page.registry).toEqual({ [key]: `${key}.map` });
    }
  });
});
