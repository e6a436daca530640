// Measures the browser bundle of `createClient` + the 16 methods the way a user's bundler ships it:
// esbuild, minified, ESM, with lazy chunks (sealing code, source-map resolver) split out and left
// off the count because they load only when configured. Shared by the budget test and bench/.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ENTRY = fileURLToPath(new URL('../../src/index.browser.ts', import.meta.url));

export interface BundleSize {
  minified: number;
  gzip: number;
  /** Lazy chunks (loaded only when their feature is configured), not counted above. */
  lazy: { file: string; bytes: number }[];
}

export async function measureBrowserBundle(): Promise<BundleSize> {
  const out = await build({
    stdin: {
      contents: `import { createClient } from ${JSON.stringify(ENTRY)};\nwindow.svc = createClient({ apiKey: 'svc_pub_x' });\nwindow.svc.major('t');`,
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    outdir: '/virtual',
    write: false,
    platform: 'browser',
    target: 'es2022',
    external: ['tweetnacl-sealedbox-js'],
    metafile: true,
  });
  const meta = out.metafile.outputs;
  // The app's own entry (the chunks of dynamic imports are entry points in the metafile too).
  const entry = Object.keys(meta).find((k) => meta[k].entryPoint === '<stdin>');
  // The entry plus every chunk it imports statically; dynamic imports stay lazy.
  const eager = new Set<string>();
  const visit = (k: string) => {
    if (eager.has(k)) return;
    eager.add(k);
    for (const imp of meta[k].imports)
      if (imp.kind === 'import-statement' && meta[imp.path]) visit(imp.path);
  };
  if (!entry) throw new Error('bundle-size: no <stdin> entry in the metafile');
  visit(entry);
  const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  const eagerNames = new Set([...eager].map(base));
  const files = new Map(out.outputFiles.map((f) => [base(f.path), f.contents]));
  let code = '';
  const lazy: BundleSize['lazy'] = [];
  for (const [path, contents] of files) {
    if (eagerNames.has(path)) code += Buffer.from(contents).toString('utf8');
    else lazy.push({ file: path, bytes: contents.length });
  }
  return { minified: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length, lazy };
}
