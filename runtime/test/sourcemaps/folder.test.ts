import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  findDebugIdComment,
  listFiles,
  mapDebugId,
  normalPrefix,
  readFolder,
} from '../../src/sourcemaps/folder.ts';

const ID = '8F1B6A52-2C3E-4BD8-9D5E-0A4C6F3B1E27';
const MAP = JSON.stringify({ version: 3, sources: ['../src/a.ts'], names: [], mappings: 'AAAA' });
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function folder(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'svc-folder-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('readFolder', () => {
  it('pairs chunks with their maps: the comment first, else <chunk>.map; inline maps too', async () => {
    const root = folder({
      'assets/index-Bx12.js': `a();\n//# debugId=${ID}\n//# sourceMappingURL=maps/index.map`,
      'assets/maps/index.map': MAP,
      'assets/lazy-Qw3e.js': 'b();', // no comment: the file beside it
      'assets/lazy-Qw3e.js.map': MAP,
      'assets/inline.mjs': `c();\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(MAP).toString('base64')}`,
      'assets/nomap.js': 'd();',
      'assets/gone.js': 'e();\n//# sourceMappingURL=gone.js.map', // names a map that is not there
      'assets/style.css': 'a{}\n/*# sourceMappingURL=style.css.map */',
      'assets/style.css.map': MAP,
      'node_modules/dep/index.js.map': MAP, // dependencies are never searched
      'node_modules/dep/index.js': 'f();',
    });
    const found = await readFolder({ dir: root, pathPrefix: '/app/', strip: true });
    expect(found.chunks).toEqual([
      {
        chunkFile: join(root, 'assets/index-Bx12.js'),
        mapFile: join(root, 'assets/maps/index.map'),
        path: 'app/assets/index-Bx12.js',
        debugId: ID.toLowerCase(),
      },
      { chunkFile: join(root, 'assets/inline.mjs'), path: 'app/assets/inline.mjs' },
      {
        chunkFile: join(root, 'assets/lazy-Qw3e.js'),
        mapFile: join(root, 'assets/lazy-Qw3e.js.map'),
        path: 'app/assets/lazy-Qw3e.js',
      },
    ]);
    expect(found.mapFiles.map((f) => f.slice(root.length + 1)).sort()).toEqual([
      'assets/lazy-Qw3e.js.map',
      'assets/maps/index.map',
      'assets/style.css.map',
    ]);
    expect(found.commented.map((f) => f.slice(root.length + 1)).sort()).toEqual([
      'assets/gone.js',
      'assets/index-Bx12.js',
      'assets/inline.mjs',
      'assets/style.css',
    ]);
  });

  it('a folder that does not exist holds nothing', async () => {
    const found = await readFolder({ dir: '/nonexistent/svc', pathPrefix: '', strip: true });
    expect(found).toEqual({ chunks: [], mapFiles: [], commented: [] });
    expect(await listFiles('/nonexistent/svc')).toEqual([]);
  });
});

describe('path prefixes and debug IDs', () => {
  it('writes a prefix as the SDK writes paths: no origin, no leading slash, a trailing one', () => {
    expect(normalPrefix('')).toBe('');
    expect(normalPrefix('/')).toBe('');
    expect(normalPrefix('/_next/static')).toBe('_next/static/');
    expect(normalPrefix('~/static/js/')).toBe('static/js/');
    expect(normalPrefix('https://cdn.example.com/shop/?v=1')).toBe('shop/');
    expect(normalPrefix('.next/server/')).toBe('.next/server/');
  });

  it('reads the debug ID comment at the end of a chunk, and the map field', () => {
    expect(findDebugIdComment(`x();\n//# debugId=${ID}\n//# sourceMappingURL=x.map\n`)).toBe(
      ID.toLowerCase(),
    );
    expect(findDebugIdComment('const s = "//# debugId=nope";')).toBeUndefined();
    expect(findDebugIdComment('x();')).toBeUndefined();
    expect(mapDebugId({ debugId: ID })).toBe(ID.toLowerCase());
    expect(mapDebugId({ debug_id: ID })).toBe(ID.toLowerCase());
    expect(mapDebugId({ debugId: 'not-a-uuid' })).toBeUndefined();
  });
});
