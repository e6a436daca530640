// Rewriting the stack lines of a description (src/location/frames.ts) and the content hashes of
// generated file names (src/location/paths.ts `withoutHash`), with a resolver written in the test.
import { describe, expect, it } from 'vitest';
import { describeWithFrames, type ResolveFrame, rewriteLine } from '../../src/location/frames.ts';
import { withoutHash } from '../../src/location/paths.ts';

/** Maps `/abs/dist/x.js:L:C` to `src/x.ts:L+10:C+1`, renames `e` to `loadOrder`; others kept. */
const resolve: ResolveFrame = (frame) => {
  const m = /^\/abs\/dist\/(\w+)\.js$/.exec(frame.file);
  if (!m)
    return { file: frame.file.replace(/^\/abs\//, ''), line: frame.line, column: frame.column };
  return {
    file: `src/${m[1]}.ts`,
    line: frame.line + 10,
    column: frame.column + 1,
    name: frame.name === 'e' ? 'loadOrder' : undefined,
  };
};

describe('rewriteLine', () => {
  it.each([
    ['    at e (/abs/dist/page.js:1:241)', '    at loadOrder (src/page.ts:11:242)'],
    ['    at async e (/abs/dist/page.js:1:2)', '    at async loadOrder (src/page.ts:11:3)'],
    ['    at new e (/abs/dist/page.js:1:2)', '    at new loadOrder (src/page.ts:11:3)'],
    ['    at Object.e (/abs/dist/page.js:1:2)', '    at Object.loadOrder (src/page.ts:11:3)'],
    ['    at x.e [as go] (/abs/dist/page.js:1:2)', '    at x.loadOrder [as go] (src/page.ts:11:3)'],
    ['    at d (/abs/dist/page.js:3:4)', '    at d (src/page.ts:13:5)'],
    ['    at /abs/dist/page.js:1:2', '    at src/page.ts:11:3'],
    ['    at file (/abs/lib/x.js:5:6)', '    at file (lib/x.js:5:6)'],
    ['e@/abs/dist/page.js:1:2', 'loadOrder@src/page.ts:11:3'],
    ['@/abs/dist/page.js:1:2', '@src/page.ts:11:3'],
    ['async*e@/abs/dist/page.js:1:2', 'async*loadOrder@src/page.ts:11:3'],
  ])('%s', (line, expected) => {
    expect(rewriteLine(line, resolve)).toBe(expected);
  });

  it.each([
    '    at new Promise (<anonymous>)',
    '    at Array.map (<anonymous>)',
    '    at async Promise.all (index 0)',
    'not a frame at all',
    'e@http://h/a.js line 2 > eval:1:2',
  ])('keeps a line without a place: %s', (line) => {
    expect(rewriteLine(line, resolve)).toBe(line);
  });

  it('rewrites the place inside a V8 eval frame', () => {
    expect(
      rewriteLine('    at eval (eval at run (/abs/dist/page.js:1:2), <anonymous>:1:5)', resolve),
    ).toBe('    at eval (eval at run (src/page.ts:11:3), <anonymous>:1:5)');
  });

  it('collects files whose maps are unread and keeps their lines for now', () => {
    const cold = new Set<string>();
    const waiting: ResolveFrame = (frame, wait) => (wait ? undefined : resolve(frame, wait));
    expect(rewriteLine('    at e (/abs/dist/page.js:1:2)', waiting, cold)).toBe(
      '    at e (/abs/dist/page.js:1:2)',
    );
    expect([...cold]).toEqual(['/abs/dist/page.js']);
  });
});

describe('describeWithFrames', () => {
  const error = () => {
    const inner = new RangeError('db down');
    inner.stack = 'RangeError: db down\n    at e (/abs/dist/db.js:1:5)';
    const outer = new Error('load failed', { cause: inner });
    outer.stack = 'Error: load failed\n    at run (/abs/dist/page.js:2:1)';
    const agg = new AggregateError([outer], 'all failed');
    agg.stack = 'AggregateError: all failed\n    at main (/abs/dist/main.js:1:1)';
    return agg;
  };

  it('rewrites every frame: causes and AggregateError members included', () => {
    expect(describeWithFrames(error(), resolve, () => Promise.resolve())).toBe(
      [
        'AggregateError: all failed',
        '    at main (src/main.ts:11:2)',
        'Includes: Error: load failed',
        '    at run (src/page.ts:12:2)',
        'Caused by: RangeError: db down',
        '    at loadOrder (src/db.ts:11:6)',
      ].join('\n'),
    );
  });

  it('reads the unread maps once, then renders again (a promise)', async () => {
    const loaded = new Set<string>();
    const asked: string[][] = [];
    const lazy: ResolveFrame = (frame, wait) =>
      wait && !loaded.has(frame.file) ? undefined : resolve(frame, wait);
    const warm = async (files: string[]) => {
      asked.push(files);
      for (const f of files) loaded.add(f);
    };
    const value = { order: 7, error: error() };
    const first = describeWithFrames(value, lazy, warm);
    expect(first).toBeInstanceOf(Promise);
    const text = await first;
    expect(asked).toEqual([['/abs/dist/main.js', '/abs/dist/page.js', '/abs/dist/db.js']]);
    expect(text).toContain('at loadOrder (src/db.ts:11:6)');
    expect(text).not.toContain('/abs/');
    // Warm now: synchronous, same text.
    expect(describeWithFrames(value, lazy, warm)).toBe(text);
  });
});

describe('withoutHash', () => {
  it.each([
    // Turbopack (Next 16)
    [
      '.next/server/chunks/ssr/[root-of-the-server]__21790f4towdem._.js',
      '.next/server/chunks/ssr/[root-of-the-server]__[hash]._.js',
    ],
    ['.next/server/chunks/ssr/_1pztwhm_cn3uu._.js', '.next/server/chunks/ssr/_[hash]._.js'],
    [
      '.next/server/chunks/ssr/app_boom_[id]_page_actions_076duzbaugpmy.js',
      '.next/server/chunks/ssr/app_boom_[id]_page_actions_[hash].js',
    ],
    [
      '.next/server/chunks/[externals]_node_fs_1t1l-4-zroh_0._.js',
      '.next/server/chunks/[externals]_node_fs_[hash]._.js',
    ],
    // Rollup / Vite / Rolldown / Nuxt
    ['assets/index-B2x9sd8K.js', 'assets/index-[hash].js'],
    ['assets/index-a_B2x-8K.js', 'assets/index-[hash].js'],
    ['_nuxt/DkQwTbxz.js', '_nuxt/[hash].js'],
    [
      '.output/server/chunks/build/styles-DqQ1PLLx.mjs',
      '.output/server/chunks/build/styles-[hash].mjs',
    ],
    // webpack (Next client chunks)
    ['_next/static/chunks/app/page-0a1b2c3d4e5f6a7b.js', '_next/static/chunks/app/page-[hash].js'],
    ['_next/static/chunks/0a1b2c3d4e5f6a7b.js', '_next/static/chunks/[hash].js'],
    ['_next/static/chunks/main.0a1b2c3d.js', '_next/static/chunks/main.[hash].js'],
  ])('%s -> %s', (path, expected) => {
    expect(withoutHash(path)).toBe(expected);
  });

  it.each([
    '.next/server/app/boom/[id]/page.js',
    '.next/server/chunks/[turbopack]_runtime.js',
    '.next/server/chunks/873.js',
    'node_modules/next/dist/compiled/next-server/app-route-turbo.runtime.prod.js',
    'src/checkout.js',
    'dist/user-settings.js',
    'src/some_long_filename.js',
    'dist/index.js',
    'assets/checkout.ts',
  ])('keeps a name without a hash: %s', (path) => {
    expect(withoutHash(path)).toBe(path);
  });
});
