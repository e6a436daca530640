// Bundle cost of the browser SDK in a Vite 8 production build, side by side in one run with a peer
// (@sentry/browser, the usual choice) and the floor (an app with no error reporting), plus the
// build-time cost of the svc() plugin against the same build without it.
// Run: node bench/vite/run.mjs   (needs `npm run build -w @svc/runtime -w @svc/vite` first)
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { svc } from '@svc/vite';
import { build } from 'vite';

process.env.NODE_ENV = 'production';
const HERE = fileURLToPath(new URL('.', import.meta.url));
const PUB = `svc_pub_${'0'.repeat(48)}`;
const APPS = {
  'no error reporting (floor)': `document.body.textContent = 'hello';`,
  '@svc/runtime + @svc/vite/client': `import { initShared } from '@svc/runtime';
import { installGlobalHandlers } from '@svc/vite/client';
installGlobalHandlers(initShared({ apiKey: '${PUB}' }));
document.body.textContent = 'hello';`,
  '@sentry/browser 11.12.0 (init, default integrations)': `import * as Sentry from '@sentry/browser';
Sentry.init({ dsn: 'https://public@o0.ingest.sentry.io/0' });
document.body.textContent = 'hello';`,
};

// Fixture apps live under bench/vite/.work so bare imports resolve from the repository's node_modules.
const WORK = join(HERE, '.work');
rmSync(WORK, { recursive: true, force: true });

async function buildApp(name, code, plugins = [], sourcemap = false) {
  const root = join(WORK, name.replace(/\W+/g, '-'));
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'main.js'), code);
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>',
  );
  const outDir = mkdtempSync(join(tmpdir(), 'svc-bench-vite-'));
  const start = performance.now();
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins,
    build: { outDir, sourcemap },
  });
  const ms = performance.now() - start;
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  let initial = 0;
  let lazy = 0;
  for (const f of readdirSync(join(outDir, 'assets')).filter((x) => x.endsWith('.js'))) {
    const gz = gzipSync(readFileSync(join(outDir, 'assets', f))).length;
    if (new RegExp(`(src|href)="/assets/${f}"`).test(html)) initial += gz;
    else lazy += gz;
  }
  rmSync(outDir, { recursive: true, force: true });
  return { initial, lazy, ms };
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => (n / 1024).toFixed(1);

console.log('| App | JS at load (gzip KB) | lazy JS (gzip KB) |');
console.log('|---|---|---|');
for (const [name, code] of Object.entries(APPS)) {
  const r = await buildApp(name, code);
  console.log(`| ${name} | ${kb(r.initial)} | ${kb(r.lazy)} |`);
}

// Build time: the SDK app with hidden maps, without the plugin vs with svc({ sourceMaps: true }).
const RUNS = 7;
const code = APPS['@svc/runtime + @svc/vite/client'];
const without = [];
const withPlugin = [];
await buildApp('warmup', code, [], 'hidden');
for (let i = 0; i < RUNS; i++) {
  without.push((await buildApp('t-without', code, [], 'hidden')).ms);
  withPlugin.push((await buildApp('t-with', code, [svc({ sourceMaps: true, release: 'x' })])).ms);
}
console.log('');
console.log(
  `| vite build (median of ${RUNS}, ms) | hidden maps, no plugin | svc({ sourceMaps: true }) |`,
);
console.log('|---|---|---|');
console.log(`| SDK app | ${median(without).toFixed(0)} | ${median(withPlugin).toFixed(0)} |`);
rmSync(WORK, { recursive: true, force: true });
