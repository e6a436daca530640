import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
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
  };
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
      column: 0,
    });
  });

  it.each(['missing.js', 'corrupt.js', 'plain.js', 'no-such-file.js'])(
    '%s: unresolved, cached as known',
    async (name) => {
      const path = join(dir, name);
      await loadMap(path);
      expect(isWarm(path)).toBe(true);
      expect(mapFrame(path, at(path))).toEqual(at(path));
    },
  );

  it('reads each script once, however many reports wait for it', async () => {
    const path = join(dir, 'linked.js');
    const first = loadMap(path);
    expect(loadMap(path)).toBe(first);
    expect(isWarm(path)).toBe(false);
    await first;
    expect(isWarm(path)).toBe(true);
  });

  it('leaves positions without a mapping as they are', async () => {
    const path = join(dir, 'linked.js');
    await loadMap(path);
    expect(mapFrame(path, { file: path, line: 1, column: 1 })).toEqual({
      file: path,
      line: 1,
      column: 1,
    });
  });
});
