// A production bundle with a source map of about `mapBytes` (sourcesContent included), made by
// esbuild (minified) from generated modules: each module's `entry` calls a chain of `depth`
// functions, the last of which throws. `stackOf(i)` runs the chunk in a V8 context of its own and
// returns the error's message and its frames inside the chunk, as a browser SDK would send them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';

function moduleText(i, depth) {
  const chain = [];
  for (let d = 0; d < depth; d++) {
    const next =
      d + 1 < depth
        ? `return step${i}x${d + 1}(order, attempt + 1) + 1;`
        : `if (order.id === 'boom') throw new Error('Order ' + order.id + ' failed in module ${i}');\n  return order.items.length;`;
    chain.push(
      `function step${i}x${d}(order, attempt) {\n  const label = 'module ${i} step ${d}';\n  if (attempt > 100) return label.length;\n  ${next}\n}`,
    );
  }
  // Filler: realistic code that is bundled (exported and used) but never throws.
  const filler = [];
  for (let f = 0; f < 12; f++) {
    filler.push(`export function format${i}x${f}(value, options = {}) {
  const parts = [];
  for (const [key, item] of Object.entries(value ?? {})) {
    if (item === undefined || item === null) continue;
    parts.push(options.upper ? String(key).toUpperCase() + '=' + String(item) : key + ':' + JSON.stringify(item));
  }
  return parts.sort().join(options.separator ?? ', ') + ' (${i}.${f})';
}`);
  }
  return `${chain.join('\n\n')}\n\n${filler.join('\n\n')}\n\nexport function entry${i}(order) {\n  return step${i}x0(order, 0);\n}\n`;
}

export async function buildBundle({ modules, depth = 8 }) {
  const root = mkdtempSync(join(tmpdir(), 'svc-bench-maps-'));
  try {
    mkdirSync(join(root, 'src/modules'), { recursive: true });
    const imports = [];
    for (let i = 0; i < modules; i++) {
      writeFileSync(join(root, `src/modules/m${i}.js`), moduleText(i, depth));
      imports.push(`import * as m${i} from './modules/m${i}.js';`);
    }
    writeFileSync(
      join(root, 'src/main.js'),
      `${imports.join('\n')}\nconst all = [${Array.from({ length: modules }, (_, i) => `m${i}`).join(', ')}];\nglobalThis.run = (i, order) => all[i][\`entry\${i}\`](order);\nglobalThis.keep = all;\n`,
    );
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['src/main.js'],
      bundle: true,
      minify: true,
      sourcemap: 'external',
      sourcesContent: true,
      format: 'iife',
      outdir: 'dist/assets',
      entryNames: '[name]-[hash]',
      metafile: true,
      logLevel: 'silent',
    });
    const out = Object.keys(result.metafile.outputs).find((f) => f.endsWith('.js'));
    const code = readFileSync(join(root, out), 'utf8').replace(
      /\n\/\/# sourceMappingURL=.*\n?$/,
      '\n',
    );
    const mapText = readFileSync(join(root, `${out}.map`), 'utf8');
    return {
      code,
      map: JSON.parse(mapText),
      mapBytes: mapText.length,
      path: out.replace(/^dist\//, ''),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The message and the frames inside the chunk of module `i`'s error. */
export function stackOf(bundle, i, origin = 'https://app.example/') {
  const context = {};
  context.globalThis = context;
  vm.runInNewContext(bundle.code, context, { filename: `${origin}${bundle.path}` });
  try {
    context.run(i, { id: 'boom', items: [] });
  } catch (error) {
    const [head, ...frames] = error.stack.split('\n');
    return [head, ...frames.filter((line) => line.includes(bundle.path))].join('\n');
  }
  throw new Error('did not throw');
}
