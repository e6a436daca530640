import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskReport } from '../../src/domain/types.ts';
import { compileUpload } from '../../src/sourcemaps/compile.ts';
import { chunkPath, parseFrame } from '../../src/sourcemaps/frames.ts';
import type { CompiledMap } from '../../src/sourcemaps/lookup.ts';
import { type ChunkMap, mapReport, reportPaths } from '../../src/sourcemaps/rewrite.ts';
import { normaliseSource } from '../../src/sourcemaps/sources.ts';
import { runAll } from '../../src/sourcemaps/steps.ts';
import { type BuiltChunk, buildApp, positionOf } from './build-fixture.ts';

let app: BuiltChunk;
let map: CompiledMap;
beforeAll(async () => {
  app = await buildApp();
  const result = runAll(
    compileUpload(
      { release: '1', path: app.path, map: app.map, code: app.code },
      { segmentsMax: 1e5, sourcesMax: 100 },
    ),
  );
  if (!result.ok) throw new Error('not compiled');
  map = result.upload.map;
});

/** The real stack of `start(id)` run from the chunk, served from `origin`. */
function stackOf(id: string, origin = 'https://app.example/'): string {
  const context: Record<string, unknown> = {};
  context.globalThis = context;
  vm.runInNewContext(app.code, context, { filename: `${origin}${app.path}` });
  try {
    (context.start as (id: string) => void)(id);
  } catch (error) {
    return (error as Error).stack!.split('\n').slice(1, 4).join('\n');
  }
  throw new Error('did not throw');
}

const report = (description: string, fields: Partial<TaskReport> = {}): TaskReport => ({
  severity: 'major',
  priority: 'medium',
  title: 'Checkout failed',
  description,
  tags: ['release:1'],
  file_name: null,
  line_number: null,
  ...fields,
});

const resolveTo =
  (known: Record<string, ChunkMap>) =>
  (path: string): ChunkMap =>
    known[path] ?? 'file';

describe('the frame grammar', () => {
  it('reads V8, Gecko and JavaScriptCore frames, with or without origin, query, name or column', () => {
    expect(parseFrame('    at d (https://app.example/assets/a-1.js?v=2:1:697)')).toEqual({
      head: '    at ',
      name: 'd',
      short: 'd',
      path: 'assets/a-1.js',
      line: 1,
      column: 697,
      style: 'v8',
    });
    expect(parseFrame('    at async Object.k [as start] (assets/a-1.js:1:763)')).toMatchObject({
      head: '    at async ',
      name: 'Object.k [as start]',
      short: 'k',
      path: 'assets/a-1.js',
    });
    expect(parseFrame('    at _next/static/chunks/13we575bavisz.js:31:63938')).toMatchObject({
      name: undefined,
      path: '_next/static/chunks/13we575bavisz.js',
      line: 31,
      column: 63938,
    });
    expect(parseFrame('d@https://app.example/assets/a-1.js:1:697')).toMatchObject({
      head: '',
      name: 'd',
      path: 'assets/a-1.js',
      style: 'at',
    });
    expect(parseFrame('@assets/a-1.js:1:2')).toMatchObject({
      head: '@',
      name: undefined,
      path: 'assets/a-1.js',
    });
    expect(parseFrame('e@assets/a-1.js:12')).toMatchObject({ name: 'e', line: 12, column: 0 });
    for (const text of [
      'Error: Order boom failed',
      'Caused by: TypeError: x',
      '    at eval (eval at f (assets/a.js:1:2), <anonymous>:1:1)',
      '    at async Promise.all (index 0)',
      'see assets/a.js:1:2 for details',
      `    at f (${'x'.repeat(5000)}.js:1:2)`,
    ]) {
      expect(parseFrame(text), text).toBeUndefined();
    }
    expect(chunkPath('http://localhost:3000//_next/static/a.js#x')).toBe('_next/static/a.js');
  });

  it('normalises bundler sources as the runtime does, dependencies under node_modules/', () => {
    // Project-relative already (as the runtime's uploader sends them), or relative to the map.
    expect(normaliseSource('src/App.tsx', '')).toEqual({ path: 'src/App.tsx', dependency: false });
    expect(normaliseSource('webpack://_N_E/./app/page.tsx', '')).toEqual({
      path: 'app/page.tsx',
      dependency: false,
    });
    expect(normaliseSource('webpack://_N_E/?1a2b', '')).toEqual({
      path: null,
      dependency: true,
    });
    expect(normaliseSource('webpack:///webpack/bootstrap', '')).toEqual({
      path: 'webpack/bootstrap',
      dependency: true,
    });
    expect(normaliseSource('turbopack:///[project]/app/page.tsx', '')).toEqual({
      path: 'app/page.tsx',
      dependency: false,
    });
    expect(
      normaliseSource(
        'turbopack:///[project]/node_modules/.pnpm/next@16.4.5/node_modules/next/dist/client/x.js',
        '',
      ),
    ).toEqual({
      path: 'node_modules/next/dist/client/x.js',
      dependency: true,
    });
    expect(normaliseSource('/@fs/home/me/app/node_modules/vue/dist/vue.js', '').path).toBe(
      'node_modules/vue/dist/vue.js',
    );
    expect(normaliseSource('../../src/App.tsx', '')).toEqual({
      path: 'src/App.tsx',
      dependency: false,
    });
    expect(normaliseSource('../../../../app/pages/orders/[id].vue', '').path).toBe(
      'app/pages/orders/[id].vue',
    );
    expect(normaliseSource('App.tsx', 'src/').path).toBe('src/App.tsx');
    expect(normaliseSource('\0commonjsHelpers.js', '')).toEqual({
      path: 'commonjsHelpers.js',
      dependency: true,
    });
  });
});

describe('mapReport on a real minified stack', () => {
  it('rewrites every frame to its original place and function name, field by field', () => {
    const raw = `Error: Order boom failed\n${stackOf('boom')}`;
    const path = chunkPath(`https://app.example/${app.path}`);
    const mapped = mapReport(
      report(raw, { file_name: path, line_number: 1 }),
      resolveTo({ [path]: { id: 7, map } }),
    );
    expect(mapped.report.description).toBe(
      [
        'Error: Order boom failed',
        '    at loadOrder (src/orders.ts:6:11)',
        '    at Object.start [as start] (src/main.ts:3:10)',
        raw.split('\n')[3]!,
      ].join('\n'),
    );
    expect(mapped.report.file_name).toBe('src/orders.ts');
    expect(mapped.report.line_number).toBe(6);
    expect(mapped.report.title).toBe('Checkout failed');
    expect(mapped.changed).toBe(true);
    expect(mapped.context).toEqual({ map: 7, source: 1, file: 'src/orders.ts', line: 6 });
    expect(mapped.notes).toEqual([
      { line: 1, place: 'src/orders.ts:6:11' },
      { line: 2, place: 'src/main.ts:3:10' },
      { line: 3, reason: 'file' },
    ]);
  });

  it("names a dependency frame under node_modules and takes the code context from the project's frame", () => {
    const raw = `TypeError: no id\n${stackOf('')}`;
    const mapped = mapReport(
      report(raw, { file_name: app.path }),
      resolveTo({ [app.path]: { id: 1, map } }),
    );
    const lines = mapped.report.description!.split('\n');
    expect(lines[1]).toBe('    at i.checkId (node_modules/tiny-lib/index.js:2:18)');
    expect(lines[2]).toBe('    at loadOrder (src/orders.ts:4:3)');
    expect(mapped.report.file_name).toBe('node_modules/tiny-lib/index.js');
    expect(mapped.report.line_number).toBeNull();
    expect(mapped.context).toEqual({ map: 1, source: 1, file: 'src/orders.ts', line: 4 });
  });

  it('leaves frames it cannot map as sent, and says why', () => {
    const { line, column } = positionOf(app.code, 'new Error');
    const text = [
      'Error: x',
      `    at d (${app.path}:${line}:${column})`,
      `    at d (${app.path}:${line + 5}:1)`,
      `d@${app.path}:${line}`,
      '    at f (assets/other-1.js:1:2)',
      '    at g (assets/old-1.js:1:2)',
    ].join('\n');
    const mapped = mapReport(
      report(text),
      resolveTo({ [app.path]: { id: 1, map }, 'assets/old-1.js': 'release' }),
    );
    expect(mapped.report.description!.split('\n').slice(2)).toEqual(text.split('\n').slice(2));
    expect(mapped.notes.map((n) => n.reason ?? n.place)).toEqual([
      'src/orders.ts:6:11',
      'position',
      'column',
      'file',
      'release',
    ]);
  });

  it('takes file_name from the deepest cause (the last block) and keeps a report without frames as is', () => {
    const at = positionOf(app.code, 'new Error');
    const dep = positionOf(app.code, 'new TypeError');
    const text = [
      'Error: outer',
      `    at k (${app.path}:${dep.line}:${dep.column})`,
      'Caused by: Error: inner',
      `    at d (${app.path}:${at.line}:${at.column})`,
    ].join('\n');
    const mapped = mapReport(
      report(text, { file_name: app.path }),
      resolveTo({ [app.path]: { id: 1, map } }),
    );
    expect(mapped.report.file_name).toBe('src/orders.ts');
    const plain = report('just text', { file_name: 'src/x.ts', line_number: 3 });
    const same = mapReport(plain, resolveTo({}));
    expect(same).toEqual({ report: plain, changed: false, notes: [], context: undefined });
    expect([...reportPaths(report(text, { file_name: 'src/x.ts' }))]).toEqual([
      app.path,
      'src/x.ts',
    ]);
  });
});
