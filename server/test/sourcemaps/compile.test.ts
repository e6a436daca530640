import vm from 'node:vm';
import fc from 'fast-check';
import { SourceMapConsumer } from 'source-map-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CompiledUpload, compileUpload } from '../../src/sourcemaps/compile.ts';
import { compiledMap, storedMap } from '../../src/sourcemaps/codec.ts';
import { functionName, lookup } from '../../src/sourcemaps/lookup.ts';
import { emptySegment, MappingsDecoder, MappingsEncoder } from '../../src/sourcemaps/mappings.ts';
import { runAll } from '../../src/sourcemaps/steps.ts';
import { type BuiltChunk, buildApp } from './build-fixture.ts';

const LIMITS = { segmentsMax: 100_000, sourcesMax: 1000 };
const compile = (body: unknown, limits = LIMITS) => runAll(compileUpload(body, limits));

function accepted(body: unknown): CompiledUpload {
  const result = compile(body);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.upload;
}

let app: BuiltChunk;
beforeAll(async () => {
  app = await buildApp();
});

describe('compileUpload on an esbuild production bundle', () => {
  it("makes sources project-relative, marks the dependency and keeps only own sources' text", () => {
    const upload = accepted({ release: '1.0.0', path: app.path, map: app.map, code: app.code });
    expect(upload.release).toBe('1.0.0');
    expect(upload.path).toBe(app.path);
    expect(upload.map.sources).toEqual([
      'node_modules/tiny-lib/index.js',
      'src/orders.ts',
      'src/main.ts',
    ]);
    expect([...upload.map.dependency]).toEqual([1, 0, 0]);
    expect(upload.contents[0]).toBeNull();
    expect(upload.contents[1]).toContain("throw new Error('Order ' + id + ' failed');");
    expect(upload.definitions.map(([, , generated, original]) => [generated, original])).toEqual(
      expect.arrayContaining([
        ['d', 'loadOrder'],
        ['k', 'start'],
      ]),
    );
  });

  it('looks up every generated position as source-map-js does (greatest lower bound, else least upper bound)', () => {
    const upload = accepted({ release: '1', path: app.path, map: app.map });
    const consumer = new SourceMapConsumer(app.map as never);
    const lines = app.code.split('\n');
    let compared = 0;
    for (const [l, text] of lines.entries()) {
      for (let column = 0; column <= text.length; column++) {
        let expected = consumer.originalPositionFor({
          line: l + 1,
          column,
          bias: SourceMapConsumer.GREATEST_LOWER_BOUND,
        });
        if (expected.source === null) {
          expected = consumer.originalPositionFor({
            line: l + 1,
            column,
            bias: SourceMapConsumer.LEAST_UPPER_BOUND,
          });
        }
        const found = lookup(upload.map, l, column);
        if (expected.source === null) {
          expect(found, `${l}:${column}`).toBeUndefined();
          continue;
        }
        compared++;
        expect(found && (app.map.sources as string[])[found.source]).toBe(expected.source);
        expect(found && [found.line + 1, found.column]).toEqual([expected.line, expected.column]);
        expect(found && found.name >= 0 ? upload.map.names[found.name] : null).toBe(expected.name);
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it("gives the same lookups when every line's segments come shuffled (it sorts them)", () => {
    const decoder = new MappingsDecoder(app.map.mappings as string);
    const segments = [];
    for (let s = emptySegment(); decoder.next(s); s = emptySegment()) segments.push(s);
    const shuffled = segments.map((s, i) => ({ s, key: (i * 7919) % 101 }));
    shuffled.sort((a, b) => a.s.line - b.s.line || a.key - b.key);
    const encoder = new MappingsEncoder();
    for (const { s } of shuffled) encoder.push(s);
    const mappings = encoder.finish();
    expect(mappings).not.toBe(app.map.mappings);
    const sorted = accepted({ release: '1', path: app.path, map: { ...app.map, mappings } });
    const plain = accepted({ release: '1', path: app.path, map: app.map });
    for (let column = 0; column < app.code.length; column += 3) {
      expect(lookup(sorted.map, 0, column)).toEqual(lookup(plain.map, 0, column));
    }
  });

  it('flattens an index map (sections) into the map it was cut from', () => {
    const part = (line: number) => ({ offset: { line, column: 0 }, map: app.map });
    const index = { version: 3, sections: [part(0), part(5)] };
    const flat = accepted({ release: '1', path: app.path, map: index });
    const plain = accepted({ release: '1', path: app.path, map: app.map });
    expect(flat.map.sources).toEqual([...plain.map.sources, ...plain.map.sources]);
    for (let column = 0; column < app.code.length; column += 5) {
      const a = lookup(plain.map, 0, column);
      expect(lookup(flat.map, 0, column)).toEqual(a);
      expect(lookup(flat.map, 5, column)).toEqual(
        a && {
          ...a,
          source: a.source + 3,
          name: a.name === -1 ? -1 : a.name + plain.map.names.length,
        },
      );
    }
  });

  it('hashes what it keeps: the same map twice is the same hash, another build another', async () => {
    const body = { release: '1', path: app.path, map: app.map };
    expect(accepted(body).hash).toBe(accepted(structuredClone(body)).hash);
    const other = await buildApp({ extra: 'export const changed = 1;' });
    expect(accepted({ ...body, map: other.map }).hash).not.toBe(accepted(body).hash);
    expect(accepted({ ...body, debug_id: '8F1B6A52-2C3E-4BD8-9D5E-0A4C6F3B1E27' }).debugId).toBe(
      '8f1b6a52-2c3e-4bd8-9d5e-0a4c6f3b1e27',
    );
    const own = { ...app.map, debugId: '0A1B6A52-2C3E-4BD8-9D5E-0A4C6F3B1E27' };
    expect(accepted({ ...body, map: own }).debugId).toBe('0a1b6a52-2c3e-4bd8-9d5e-0a4c6f3b1e27');
    expect(accepted({ ...body, map: { ...app.map, debugId: 'not-a-uuid' } }).debugId).toBeNull();
  });

  it('reads back from what a store keeps with the same lookups and function names', () => {
    const upload = accepted({ release: '1', path: app.path, map: app.map, code: app.code });
    const stored = storedMap(upload);
    const back = compiledMap({ ...stored, checkpoints: Buffer.from(stored.checkpoints) });
    expect(back.sources).toEqual(upload.map.sources);
    expect([...back.dependency]).toEqual([...upload.map.dependency]);
    expect(back.names).toEqual([]); // only the upload reads them
    for (let column = 0; column < app.code.length; column += 7) {
      const a = lookup(upload.map, 0, column);
      const b = lookup(back, 0, column);
      expect(b && { ...b, name: -1 }).toEqual(a && { ...a, name: -1 });
      for (const printed of ['d', 'k']) {
        expect(functionName(back, printed, 0, column)).toBe(
          functionName(upload.map, printed, 0, column),
        );
      }
    }
    expect(functionName(back, 'd', 0, app.code.length)).toBe('loadOrder');
  });

  it('runs the real chunk: its stack positions map to the original throw sites', () => {
    const upload = accepted({ release: '1', path: app.path, map: app.map, code: app.code });
    const context: Record<string, unknown> = {};
    context.globalThis = context;
    vm.runInNewContext(app.code, context, { filename: `https://app.example/${app.path}` });
    let stack = '';
    try {
      (context.start as (id: string) => void)('boom');
    } catch (error) {
      stack = (error as Error).stack!;
    }
    const [line, column] = /main-\w+\.js:(\d+):(\d+)/.exec(stack)!.slice(1).map(Number);
    const at = lookup(upload.map, line! - 1, column! - 1)!;
    expect([upload.map.sources[at.source], at.line + 1, at.column + 1]).toEqual([
      'src/orders.ts',
      6,
      11,
    ]);
  });
});

describe('compileUpload refuses maps it cannot trust', () => {
  const map = () => structuredClone(app.map);
  const errorsOf = (body: unknown, limits = LIMITS) => {
    const result = compile(body, limits);
    expect(result.ok).toBe(false);
    return result.ok ? {} : result.errors;
  };

  it('answers every field at fault: release, path, debug_id, map', () => {
    expect(errorsOf({ release: '', path: '/assets/a.js', map: map(), debug_id: 'nope' })).toEqual({
      release: ['The release field must NOT have fewer than 1 characters.'],
      path: ['The path field must match pattern "^[^/?#\\s\\\\][^?#\\s\\\\]*$".'],
      debug_id: [
        'The debug_id field must match pattern "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$".',
      ],
    });
    expect(errorsOf({ release: 'x'.repeat(43), path: 'a/../b.js', map: map() })).toEqual({
      release: ['The release field must NOT have more than 42 characters.'],
      path: ['The path may not have empty, "." or ".." segments.'],
    });
    expect(errorsOf({ release: ' 1', path: 'https://cdn.example/a.js', map: map() })).toEqual({
      release: ['The release may not start or end with a space.'],
      path: ['The path is a path, not a URL: leave out the origin.'],
    });
    expect(errorsOf({ release: '1', path: 'a.js' })).toEqual({
      map: ['The map field is required.'],
    });
    expect(errorsOf([1])).toEqual({ body: ['The body must be a JSON object.'] });
    expect(errorsOf({ release: '1', path: 'a.js', map: { ...map(), version: 2 } })).toEqual({
      'map.version': ['The map must be a version 3 source map.'],
    });
  });

  it('refuses sources outside the project: a ".." after the leading ones, an absolute path', () => {
    const sneaky = {
      ...map(),
      sources: ['../../src/../../../etc/passwd', '/home/me/app/src/x.ts', 'ok.ts'],
    };
    expect(errorsOf({ release: '1', path: app.path, map: sneaky })).toEqual({
      'map.sources': [
        'A source may not contain a ".." segment: "../../src/../../../etc/passwd".',
        'A source may not be an absolute path outside node_modules: "/home/me/app/src/x.ts". Build the map with sources relative to it.',
      ],
    });
    const webpack = { ...map(), sources: ['webpack://app/./src/../../secret.ts', 'a.ts', 'b.ts'] };
    expect(errorsOf({ release: '1', path: app.path, map: webpack })['map.sources']).toEqual([
      'A source may not contain a ".." segment: "webpack://app/./src/../../secret.ts".',
    ]);
  });

  it('refuses mappings that do not decode, name missing sources or names, or decode to too many segments', () => {
    const with_ = (mappings: string) => ({
      release: '1',
      path: 'a.js',
      map: { ...map(), mappings },
    });
    expect(errorsOf(with_('AAAA,!'))['map.mappings']![0]).toMatch(
      /not a base64 VLQ character at character 5/,
    );
    expect(errorsOf(with_('AA'))['map.mappings']![0]).toMatch(/a segment of 2 fields/);
    expect(errorsOf(with_('AAAg'))['map.mappings']![0]).toMatch(/a value is cut off/);
    expect(errorsOf(with_('A//////////B'))['map.mappings']![0]).toMatch(/more than 32 bits/);
    expect(errorsOf(with_('AGAA'))['map.mappings']![0]).toMatch(/names source 3 of 3/);
    expect(errorsOf(with_('AAAAgB'))['map.mappings']![0]).toMatch(/names name 16 of/);
    const many = `${'AAAA,'.repeat(200)}AAAA`;
    expect(errorsOf(with_(many), { ...LIMITS, segmentsMax: 200 })).toEqual({
      'map.mappings': ['The mappings decode to more than 200 segments.'],
    });
  });

  it('refuses too many sources, and index maps that nest or overlap', () => {
    expect(
      errorsOf({ release: '1', path: 'a.js', map: map() }, { ...LIMITS, sourcesMax: 2 }),
    ).toEqual({
      'map.sources': ['The map may name at most 2 sources.'],
    });
    const nested = {
      version: 3,
      sections: [{ offset: { line: 0, column: 0 }, map: { version: 3, sections: [] } }],
    };
    expect(errorsOf({ release: '1', path: 'a.js', map: nested })).toEqual({
      'map.sections': ['Section 0 is an index map itself.'],
    });
    const part = (line: number) => ({ offset: { line, column: 0 }, map: map() });
    expect(
      errorsOf({ release: '1', path: 'a.js', map: { version: 3, sections: [part(0), part(0)] } }),
    ).toEqual({
      'map.sections': ['Section 1 starts before the end of section 0.'],
    });
  });
});

describe('the VLQ codec', () => {
  it('decodes what it encodes, for any segments in order', () => {
    const segment = fc.record({
      dl: fc.nat(3),
      column: fc.nat(100_000),
      source: fc.integer({ min: -1, max: 50 }),
      sourceLine: fc.nat(1_000_000),
      sourceColumn: fc.nat(10_000),
      name: fc.integer({ min: -1, max: 50 }),
    });
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 60 }), (raw) => {
        let line = 0;
        const segments = raw
          .map((s) => {
            line += s.dl;
            return {
              line,
              column: s.column,
              source: s.source,
              sourceLine: s.sourceLine,
              sourceColumn: s.sourceColumn,
              name: s.source < 0 ? -1 : s.name,
            };
          })
          .sort((a, b) => a.line - b.line || a.column - b.column)
          .map((s) => (s.source < 0 ? { ...s, sourceLine: 0, sourceColumn: 0 } : s));
        const encoder = new MappingsEncoder();
        for (const s of segments) encoder.push(s);
        const decoder = new MappingsDecoder(encoder.finish());
        const back = [];
        for (let s = emptySegment(); decoder.next(s); s = emptySegment()) back.push(s);
        expect(
          back.map((s) => (s.source < 0 ? { ...s, sourceLine: 0, sourceColumn: 0 } : s)),
        ).toEqual(segments);
      }),
    );
  });
});
