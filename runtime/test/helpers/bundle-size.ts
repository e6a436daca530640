// Measures what the built package adds to a browser app's start-up, the way a user's bundler ships
// it: an app whose whole code is `createClient` + one report, importing `@svc/runtime` (its
// `browser` build from dist/, dependencies included), built by esbuild (minified, ESM, splitting)
// and by Vite's production build. Lazy chunks (dynamic imports) are listed apart: they load only
// when a client needs them. Shared by the budget test and bench/runtime/bundle-size.mjs.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const RUNTIME = fileURLToPath(new URL('../..', import.meta.url));
export const APP = `import { createClient } from '@svc/runtime';\nwindow.svc = createClient({ apiKey: 'svc_pub_x' });\nwindow.svc.major('t');\n`;
const gzip = (code: string | Uint8Array) => gzipSync(code, { level: 9 }).length;

export interface BundleSize {
  minified: number;
  gzip: number;
  /** Lazy chunks (loaded only when their feature is used), not counted above. */
  lazy: { file: string; bytes: number }[];
}

/** esbuild with splitting: the app's entry and every chunk it imports statically. */
export async function measureEsbuild(contents = APP): Promise<BundleSize> {
  const out = await build({
    stdin: { contents, resolveDir: RUNTIME, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    outdir: '/virtual',
    write: false,
    platform: 'browser',
    target: 'es2022',
    metafile: true,
  });
  const meta = out.metafile.outputs;
  // The app's own entry (the chunks of dynamic imports are entry points in the metafile too).
  const entry = Object.keys(meta).find((k) => meta[k].entryPoint === '<stdin>');
  if (!entry) throw new Error('bundle-size: no <stdin> entry in the metafile');
  const eager = new Set<string>();
  const visit = (k: string) => {
    if (eager.has(k)) return;
    eager.add(k);
    for (const imp of meta[k].imports)
      if (imp.kind === 'import-statement' && meta[imp.path]) visit(imp.path);
  };
  visit(entry);
  const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  const eagerNames = new Set([...eager].map(base));
  let code = '';
  const lazy: BundleSize['lazy'] = [];
  for (const f of out.outputFiles) {
    if (eagerNames.has(base(f.path))) code += f.text;
    else lazy.push({ file: base(f.path), bytes: f.contents.length });
  }
  return { minified: Buffer.byteLength(code), gzip: gzip(code), lazy };
}

/** Vite's production build of a one-page app: gzip of the JS the page loads at start-up. */
async function viteStartup(main: string, files: Record<string, string> = {}) {
  const { build: viteBuild } = await import('vite');
  const root = mkdtempSync(join(tmpdir(), 'svc-bundle-size-'));
  try {
    // The app depends on the package as an installed one (node_modules/@svc/runtime).
    mkdirSync(join(root, 'node_modules', '@svc'), { recursive: true });
    symlinkSync(RUNTIME, join(root, 'node_modules', '@svc', 'runtime'), 'dir');
    writeFileSync(join(root, 'index.html'), '<script type="module" src="/main.js"></script>');
    writeFileSync(join(root, 'main.js'), main);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
    const outDir = join(root, 'dist');
    await viteBuild({
      root,
      configFile: false,
      logLevel: 'silent',
      mode: 'production',
      build: { outDir },
    });
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    let startup = '';
    const lazy: BundleSize['lazy'] = [];
    for (const f of readdirSync(join(outDir, 'assets'))) {
      const text = readFileSync(join(outDir, 'assets', f), 'utf8');
      if (html.includes(`/assets/${f}`)) startup += text;
      else lazy.push({ file: f, bytes: Buffer.byteLength(text) });
    }
    return { minified: Buffer.byteLength(startup), gzip: gzip(startup), lazy };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export interface ViteSize extends BundleSize {
  /** Start-up gzip of the same app without Svc but with one lazy import of its own. */
  floor: number;
  /** `gzip - floor`: what Svc adds to an app that already has Vite's preload runtime. */
  sdk: number;
}

/**
 * Vite's build of the same app. Vite puts its own runtime in every entry that has a dynamic
 * import (the modulepreload polyfill and the `__vitePreload` helper, about 1.1 KB gzip, in any
 * app with a lazy route); the floor app has exactly that, so `sdk` is what Svc itself adds.
 */
export async function measureVite(): Promise<ViteSize> {
  const app = await viteStartup(APP);
  const floor = await viteStartup('window.lazy = () => import("./lazy.js");\n', {
    'lazy.js': 'export const lazy = 1;\n',
  });
  return { ...app, floor: floor.gzip, sdk: app.gzip - floor.gzip };
}
