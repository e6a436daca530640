// Browser location-capture cost, in Debian Chromium. Run from the repo root:
//   node bench/location/browser.mjs
// Builds bench/location/browser (plus a generated 200-module app) with Vite, serves it from
// 127.0.0.1 with `Cache-Control: no-store` (every map fetch is a real request), and runs
// `window.bench()` in the page. Uses playwright-core and vite from the root node_modules.
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const MODULES = 200;
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-location-browser-'));
cpSync(join(here, 'browser'), dir, { recursive: true });
for (let i = 0; i < MODULES; i++) {
  writeFileSync(
    join(dir, `m${i}.ts`),
    `export interface Row${i} { id: number; label: string }\n` +
      `export function view${i}(rows: Row${i}[]): string {\n` +
      `  return rows.filter((r) => r.id % ${i + 2} === 0).map((r) => r.label.trim()).join(', ');\n}\n`,
  );
}
writeFileSync(
  join(dir, 'modules.ts'),
  `${Array.from({ length: MODULES }, (_, i) => `import { view${i} } from './m${i}.ts';`).join('\n')}\n` +
    `export const modules = [${Array.from({ length: MODULES }, (_, i) => `view${i}`).join(', ')}];\n`,
);
await build({
  root: dir,
  configFile: false,
  logLevel: 'silent',
  resolve: { alias: { 'svc-location': join(here, '../../runtime/src/location') } },
  build: { outDir: join(dir, 'dist'), sourcemap: true },
});

const dist = join(dir, 'dist');
const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  try {
    const body = readFileSync(join(dist, normalize(path === '/' ? '/index.html' : path)));
    const type = { '.html': 'text/html', '.js': 'text/javascript' }[extname(path) || '.html'];
    res.writeHead(200, { 'content-type': type ?? 'application/json', 'cache-control': 'no-store' });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const browser = await chromium.launch({
  executablePath: (await import('../../testkit/src/chromium.ts')).chromiumPath(),
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => 'bench' in window);
  const out = await page.evaluate(() => window.bench());
  const assets = readdirSync(join(dist, 'assets'));
  const size = (re) =>
    assets
      .filter((f) => re.test(f))
      .reduce((n, f) => n + statSync(join(dist, 'assets', f)).size, 0);
  const version = await browser.version();
  console.log(
    `Chromium ${version}, ${MODULES}-module app; main chunk ${size(/^index-.*\.js$/)} B, its map ` +
      `${size(/^index-.*\.js\.map$/)} B; resolver chunk ${size(/^browser-maps-.*\.js$/)} B; ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  console.log(
    `first report ever (resolver import + fetches + parse): ${Math.round(out.firstUs)} us`,
  );
  console.log(`first report: ${JSON.stringify(out.first)}; warm: ${JSON.stringify(out.resolved)}`);
  const byName = new Map();
  for (const [name, us] of out.rows) byName.set(name, [...(byName.get(name) ?? []), us]);
  console.log('| Case (Chromium) | median us/call | min us/call |\n|---|---|---|');
  for (const [name, list] of byName) {
    list.sort((a, b) => a - b);
    console.log(`| ${name} | ${list[list.length >> 1].toFixed(1)} | ${list[0].toFixed(1)} |`);
  }
} finally {
  await browser.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
