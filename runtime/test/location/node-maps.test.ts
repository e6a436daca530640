import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearMapCache, isWarm, loadMap, mapFrame } from '../../src/location/node-maps.ts';

// Line 2 of the script maps to line 3 of `../src/a.ts` (relative to the map's directory).
const MAP = JSON.stringify({ version: 3, sources: ['../src/a.ts'], names: [], mappings: ';AAEA' });
let dir: string;
const at = (file: string) => ({ file, line: 2, column: 1 });

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'svc-location-maps-')));
  const b64 = Buffer.from(MAP).toString('base64');
  const files: Record<string, string> = {
    'linked.js': 'a\nb\n//# sourceMappingURL=linked.js.map',
    'linked.js.map': MAP,
    'inline.js': `a\nb\n//# sourceMappingURL=data:application/json;base64,${b64}`,
    'sibling.js': 'a\nb\n',
    'sibling.js.map': MAP,
    'missing.js': 'a\nb\n//# sourceMappingURL=gone.js.map',
    'corrupt.js': 'a\nb\n//# sourceMappingURL=corrupt.js.map',
    'corrupt.js.map': '{"version":3,"mappings":',
    'plain.js': 'a\nb\n',
    // A bundle of a bundler's output (SvelteKit's Node adapter rolling up Vite's server build):
    // line 2 of bundle.js is line 2 of out/entry.js, whose own hidden map gives ../src/a.ts:3.
    'bundle.js': 'a\nb\n',
    'bundle.js.map': JSON.stringify({
      version: 3,
      sources: ['out/entry.js', 'node_modules/x/index.js'],
      names: [],
      mappings: ';AACA',
    }),
    'out/entry.js': 'a\nb\n',
    'out/entry.js.map': MAP,
  };
  await mkdir(join(dir, 'out'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
});

afterAll(() => rm(dir, { recursive: true, force: true }));
beforeEach(() => clearMapCache());

describe('loadMap + mapFrame', () => {
  it.each(['linked.js', 'inline.js', 'sibling.js'])('%s resolves to the original', async (name) => {
    const path = join(dir, name);
    await loadMap(path);
    expect(mapFrame(path, at(path))).toEqual({
      file: join(dir, '../src/a.ts'),
      line: 3,
      column: 1,
    });
  });

  it.each(['missing.js', 'corrupt.js', 'plain.js', 'no-such-file.js'])(
    '%s: unresolved, cached as known',
    async (name) => {
      const path = join(dir, name);
      await loadMap(path);
      expect(isWarm(path)).toBe(true);
      expect(mapFrame(path, at(path))).toBeUndefined();
    },
  );

  it("follows a generated source's own map (two levels), read before the script is warm", async () => {
    const path = join(dir, 'bundle.js');
    await loadMap(path);
    expect(mapFrame(path, at(path))).toEqual({ file: join(dir, 'src/a.ts'), line: 3, column: 1 });
  });

  it('reads each script once, however many reports wait for it', async () => {
    const path = join(dir, 'linked.js');
    const first = loadMap(path);
    expect(loadMap(path)).toBe(first);
    expect(isWarm(path)).toBe(false);
    await first;
    expect(isWarm(path)).toBe(true);
  });

  it('gives nothing for positions without a mapping', async () => {
    const path = join(dir, 'linked.js');
    await loadMap(path);
    expect(mapFrame(path, { file: path, line: 1, column: 1 })).toBeUndefined();
  });

  it('decodes percent-encoded sources (Turbopack writes `%5Bid%5D` for `[id]`)', async () => {
    const encoded = JSON.stringify({
      version: 3,
      sources: ['../app/boom/%5Bid%5D/page.tsx', '../lib/100%.ts'],
      names: [],
      mappings: ';AAEA,CCAA',
    });
    await writeFile(join(dir, 'encoded.js'), 'a\nb\n');
    await writeFile(join(dir, 'encoded.js.map'), encoded);
    const path = join(dir, 'encoded.js');
    await loadMap(path);
    expect(mapFrame(path, at(path))?.file).toBe(join(dir, '../app/boom/[id]/page.tsx'));
    expect(mapFrame(path, { file: path, line: 2, column: 2 })?.file).toBe(
      join(dir, '../lib/100%.ts'),
    );
  });

  it('names the function a frame is in after the map (minified `e` -> `loadOrder`)', async () => {
    // Generated: `function e(){throw Error("x")}` on line 1; the map names `e` `loadOrder`.
    const code = 'function e(){throw Error("x")}\n//# sourceMappingURL=named.js.map';
    const named = JSON.stringify({
      version: 3,
      sources: ['../src/order.ts'],
      names: ['loadOrder'],
      // col 0 -> 1:0; col 9 (`e`) -> 1:9 named loadOrder; col 13 (`throw`) -> 2:2
      mappings: 'AAAA,SAASA,IACP',
    });
    await writeFile(join(dir, 'named.js'), code);
    await writeFile(join(dir, 'named.js.map'), named);
    const path = join(dir, 'named.js');
    await loadMap(path);
    const frame = { file: path, line: 1, column: 14 };
    expect(mapFrame(path, frame, 'e')).toEqual({
      file: join(dir, '../src/order.ts'),
      line: 2,
      column: 3,
      name: 'loadOrder',
    });
    expect(mapFrame(path, frame, 'zz')?.name).toBeUndefined();
  });
});
