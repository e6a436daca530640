import { describe, expect, it } from 'vitest';
import { SourceMapConsumer } from 'source-map-js';
import { decodeDataUrl, findMapComment, parseMap } from '../../src/location/sourcemap.ts';

// A hand-written map: line 2 of the output maps to line 3 of `src/a.ts`.
const MAP = JSON.stringify({
  version: 3,
  sources: ['../src/a.ts'],
  sourcesContent: null,
  mappings: ';AAEA,MAAM,IAAI',
  names: [],
});

describe('findMapComment', () => {
  it('takes the last `//# sourceMappingURL=` (and the legacy `//@` form)', () => {
    expect(findMapComment('x()\n//# sourceMappingURL=a.js.map\n')).toBe('a.js.map');
    expect(findMapComment('//# sourceMappingURL=old.map\nx()\n//@ sourceMappingURL=new.map')).toBe(
      'new.map',
    );
    expect(findMapComment('/*# sourceMappingURL=data:application/json;base64,e30= */')).toBe(
      'data:application/json;base64,e30=',
    );
    expect(findMapComment('no comment here')).toBeUndefined();
  });
});

describe('decodeDataUrl', () => {
  it('decodes base64 (UTF-8) and percent-encoded maps', () => {
    const b64 = Buffer.from('{"é":1}').toString('base64');
    expect(decodeDataUrl(`data:application/json;charset=utf-8;base64,${b64}`)).toBe('{"é":1}');
    expect(decodeDataUrl('data:application/json,%7B%7D')).toBe('{}');
  });
});

describe('parseMap', () => {
  it('maps a generated 1-based line/column to the original source and line', () => {
    const lookup = parseMap(MAP, SourceMapConsumer);
    expect(lookup(2, 1)).toEqual({ source: '../src/a.ts', line: 3, column: 1 });
    expect(lookup(2, 8)).toEqual({ source: '../src/a.ts', line: 3, column: 7 });
  });

  it('accepts an XSSI prefix and rejects non-maps', () => {
    expect(parseMap(`)]}'\n${MAP}`, SourceMapConsumer)(2, 1)?.line).toBe(3);
    expect(() => parseMap('<html>not found</html>', SourceMapConsumer)).toThrow();
  });

  it('returns undefined where the map has no mapping', () => {
    expect(parseMap(MAP, SourceMapConsumer)(1, 1)).toBeUndefined();
  });
});
