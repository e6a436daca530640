// A frame in code the bundler generated and its map says nothing of (Vite's SSR wrapper of a Vue
// component's setup, bundled by Nitro: `_sfc_main.setup = (props, ctx) => ...` on lines with no
// segment) is written as its file alone: its line moves from build to build, and the same error
// from two builds must give the same text. Real maps, written by source-map-js, on disk.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SourceMapGenerator } from 'source-map-js';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { describeNode } from '../../src/location/node-frames.ts';
import { clearMapCache } from '../../src/location/node-maps.ts';
import { setProjectRoot } from '../../src/location/node-paths.ts';

const ON = { captureLocation: true, lineNumbers: false, sourceMaps: true };
const dirs: string[] = [];
beforeEach(() => clearMapCache());
afterAll(async () => {
  setProjectRoot(undefined);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/**
 * A build of the page: `imports` lines of imports, the page's own code (mapped to
 * app/pages/order.vue), then the generated wrapper (unmapped). Returns the app and the chunk.
 */
async function build(hash: string, imports: number) {
  const app = await realpath(await mkdtemp(join(tmpdir(), 'svc-generated-')));
  dirs.push(app);
  const name = `order-${hash}.mjs`;
  const dir = join(app, '.output/server/chunks/build');
  await mkdir(dir, { recursive: true });
  const own = imports + 1; // the line of `throw`
  const lines = [
    ...Array.from({ length: imports }, (_, i) => `import 'dep-${i}';`),
    "function renderOrder(id) { throw new Error('Order ' + id + ' failed'); }",
    'var _sfc_setup = () => renderOrder(7);',
    'export const setup = () => _sfc_setup();',
    `//# sourceMappingURL=${name}.map`,
  ];
  const map = new SourceMapGenerator({ file: name });
  map.addMapping({
    generated: { line: own, column: 27 },
    original: { line: 4, column: 2 },
    source: '../../../../app/pages/order.vue',
    name: 'renderOrder',
  });
  map.addMapping({
    generated: { line: own, column: 0 },
    original: { line: 3, column: 0 },
    source: '../../../../app/pages/order.vue',
  });
  await writeFile(join(dir, name), lines.join('\n'));
  await writeFile(join(dir, `${name}.map`), map.toString());
  const file = join(dir, name);
  const error = new Error('Order 7 failed');
  error.stack = [
    'Error: Order 7 failed',
    `    at renderOrder (${file}:${own}:28)`,
    `    at _sfc_setup (${file}:${own + 1}:25)`,
    `    at order_vue_vue_type_script_setup_true_lang_default.setup (${file}:${own + 2}:30)`,
    '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  ].join('\n');
  return { app, error };
}

async function describeIn(built: Awaited<ReturnType<typeof build>>) {
  setProjectRoot(built.app);
  return describeNode(built.error, ON);
}

it('writes a frame in generated code no map explains as its file alone, the same in every build', async () => {
  const first = await describeIn(await build('C9XqPk2u', 27));
  expect(first).toBe(
    [
      'Error: Order 7 failed',
      '    at renderOrder (app/pages/order.vue:4:3)',
      '    at _sfc_setup (.output/server/chunks/build/order-[hash].mjs)',
      '    at order_vue_vue_type_script_setup_true_lang_default.setup (.output/server/chunks/build/order-[hash].mjs)',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ].join('\n'),
  );
  // Another build: two more imports above, another hash; the same text.
  clearMapCache();
  expect(await describeIn(await build('Bx81LmQe', 29))).toBe(first);
});

it('keeps the position of a script without a map', async () => {
  const built = await build('D4kP0aZs', 1);
  await rm(join(built.app, '.output/server/chunks/build/order-D4kP0aZs.mjs.map'));
  const text = await describeIn(built);
  expect(text).toContain('    at renderOrder (.output/server/chunks/build/order-[hash].mjs:2:28)');
});
