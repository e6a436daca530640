// Real bundler output for the source-map suites: a small app (its own sources and a dependency
// under node_modules) bundled and minified by esbuild, with an external map holding
// `sourcesContent`, as a production build writes it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

export interface BuiltChunk {
  /** The chunk's code as deployed. */
  code: string;
  /** The parsed map. */
  map: Record<string, unknown>;
  /** The chunk's path as a frame names it (`assets/app-<hash>.js`). */
  path: string;
}

/** The app's sources: `src/` is the project's own code; `node_modules/tiny-lib` a dependency. */
export const APP_FILES: Record<string, string> = {
  'src/main.ts': `import { loadOrder } from './orders';
export function start(id: string) {
  return loadOrder(id);
}
(globalThis as any).start = start;
`,
  'src/orders.ts': `import { checkId } from 'tiny-lib';

export function loadOrder(id: string) {
  checkId(id);
  if (id === 'boom') {
    throw new Error('Order ' + id + ' failed');
  }
  return { id };
}
`,
  'node_modules/tiny-lib/package.json': '{"name":"tiny-lib","main":"index.js"}',
  'node_modules/tiny-lib/index.js': `exports.checkId = function checkId(id) {
  if (!id) throw new TypeError('no id');
};
`,
};

/**
 * Bundles `files` (default `APP_FILES`, with `extra` lines appended to src/orders.ts, so a
 * second build differs) into `dist/assets/`; returns the chunk and its map.
 */
export async function buildApp(options: { extra?: string; files?: Record<string, string> } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'svc-sm-build-'));
  try {
    const files = { ...(options.files ?? APP_FILES) };
    if (options.extra) files['src/orders.ts'] += `\n${options.extra}\n`;
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, name)), { recursive: true });
      writeFileSync(join(root, name), text);
    }
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['src/main.ts'],
      bundle: true,
      minify: true,
      sourcemap: 'external',
      sourcesContent: true,
      format: 'iife',
      outdir: 'dist/assets',
      entryNames: '[name]-[hash]',
      write: true,
      metafile: true,
      logLevel: 'silent',
    });
    const out = Object.keys(result.metafile.outputs).find((f) => f.endsWith('.js'))!;
    const code = readFileSync(join(root, out), 'utf8').replace(
      /\n\/\/# sourceMappingURL=.*\n?$/,
      '\n',
    );
    const map = JSON.parse(readFileSync(join(root, `${out}.map`), 'utf8')) as Record<
      string,
      unknown
    >;
    return { code, map, path: out.replace(/^dist\//, '') } satisfies BuiltChunk;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The 1-based line and column of the first `needle` in `code`. */
export function positionOf(code: string, needle: string): { line: number; column: number } {
  const at = code.indexOf(needle);
  if (at === -1) throw new Error(`${needle} not in the chunk`);
  const before = code.slice(0, at);
  const line = before.split('\n').length;
  return { line, column: at - before.lastIndexOf('\n') };
}
