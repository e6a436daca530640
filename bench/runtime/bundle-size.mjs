// Browser bundle size, side by side: the floor (an empty app), @svc/runtime (createClient + the 16
// methods, resolved through the package's `browser` condition) and @sentry/browser minimal
// (init + captureException). esbuild, minified, ESM; lazy chunks (dynamic imports) listed apart.
// Then @svc/runtime in Vite's production build (runtime/test/helpers/bundle-size.ts, which the
// budget test uses too). Run with `node --import tsx bench/runtime/bundle-size.mjs`.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const apps = {
  'floor (no error reporting)': `window.x = 1;`,
  '@svc/runtime createClient + 16 methods': `import { createClient } from '@svc/runtime'; const c = createClient({ apiKey: 'svc_pub_x' }); c.major('t');`,
  '@sentry/browser minimal (init + captureException)': `import { init, captureException } from '@sentry/browser'; init({ dsn: 'https://k@o0.ingest.example/1', defaultIntegrations: false }); captureException(new Error('t'));`,
  '@sentry/browser (init with default integrations)': `import { init, captureException } from '@sentry/browser'; init({ dsn: 'https://k@o0.ingest.example/1' }); captureException(new Error('t'));`,
};

console.log('| app | entry min B | entry gzip B | lazy chunks min B |');
console.log('|---|---|---|---|');
for (const [name, contents] of Object.entries(apps)) {
  const out = await build({
    stdin: { contents, resolveDir: process.cwd(), loader: 'js' },
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
  const eager = new Set();
  const visit = (k) => {
    if (eager.has(k)) return;
    eager.add(k);
    for (const i of meta[k].imports)
      if (i.kind === 'import-statement' && meta[i.path]) visit(i.path);
  };
  // The app's own entry (the chunks of dynamic imports are entry points in the metafile too).
  visit(Object.keys(meta).find((k) => meta[k].entryPoint === '<stdin>'));
  const base = (p) => p.slice(p.lastIndexOf('/') + 1);
  const eagerNames = new Set([...eager].map(base));
  let code = '';
  let lazy = 0;
  for (const f of out.outputFiles) {
    if (eagerNames.has(base(f.path))) code += f.text;
    else lazy += f.contents.length;
  }
  console.log(
    `| ${name} | ${Buffer.byteLength(code)} | ${gzipSync(code, { level: 9 }).length} | ${lazy} |`,
  );
}

const { measureVite } = await import('../../runtime/test/helpers/bundle-size.ts');
const vite = await measureVite();
console.log(
  `\nVite production build, @svc/runtime createClient + 1 report: start-up ${vite.gzip} B gzip = Vite's preload runtime ${vite.floor} B (the same app without Svc, with one lazy import) + Svc ${vite.sdk} B; lazy chunks ${vite.lazy.reduce((n, c) => n + c.bytes, 0)} B min`,
);
