// Location-capture cost per reporting call (Node). Run from the repo root: node bench/location/run.mjs
// Builds the capture code and a fake app (with and without a source map) into a temp dir with esbuild,
// then times each case in this one process, next to the raw `new Error().stack` ceiling and Sentry's
// stack parser (peer). A child process times Node's own `--enable-source-maps` stack formatting.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { defaultStackParser } from '@sentry/node';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-location-'));
const MODULES = 40;

// The SDK side, installed like a package so its frames count as SDK frames.
const sdkEntry = join(dir, 'sdk-entry.ts');
writeFileSync(
  sdkEntry,
  `export { captureLocation } from '${repo}runtime/src/location/node.ts';\n` +
    `export { clearMapCache } from '${repo}runtime/src/location/node-maps.ts';\n`,
);
await build({
  entryPoints: [sdkEntry],
  outfile: join(dir, 'node_modules/@svc/runtime/dist/location.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  logLevel: 'silent',
});

// A fake app: MODULES TypeScript modules bundled into one file, with a linked map or without one.
mkdirSync(join(dir, 'src'));
writeFileSync(join(dir, 'package.json'), '{"name":"bench-app","type":"module"}');
for (let i = 0; i < MODULES; i++) {
  writeFileSync(
    join(dir, `src/m${i}.ts`),
    `export interface Item${i} { id: number; name: string }\n` +
      `export function work${i}(items: Item${i}[]): number {\n` +
      `  return items.filter((x) => x.id % ${i + 2} === 0).map((x) => x.name.length).reduce((a, b) => a + b, 0);\n}\n`,
  );
}
writeFileSync(
  join(dir, 'src/app.ts'),
  `${Array.from({ length: MODULES }, (_, i) => `import { work${i} } from './m${i}.ts';`).join('\n')}\n` +
    `export const all = [${Array.from({ length: MODULES }, (_, i) => `work${i}`).join(', ')}];\n` +
    `export function fail(): Error {\n  return new Error('checkout failed');\n}\n` +
    `export function report(capture: (d: unknown, o: object) => unknown, o: object): unknown {\n` +
    `  return capture('slow page', o);\n}\n` +
    `export function stack(): string | undefined {\n  return new Error().stack;\n}\n`,
);
for (const [name, sourcemap] of [
  ['app.js', 'linked'],
  ['plain.js', false],
]) {
  await build({
    entryPoints: [join(dir, 'src/app.ts')],
    outfile: join(dir, 'dist', name),
    bundle: true,
    platform: 'node',
    format: 'esm',
    sourcemap,
    logLevel: 'silent',
  });
}

const sdk = await import(
  pathToFileURL(join(dir, 'node_modules/@svc/runtime/dist/location.mjs')).href
);
const mapped = await import(pathToFileURL(join(dir, 'dist/app.js')).href);
const plain = await import(pathToFileURL(join(dir, 'dist/plain.js')).href);
const on = { captureLocation: true, lineNumbers: true, sourceMaps: true };
const noMaps = { ...on, sourceMaps: false };
const off = { ...on, captureLocation: false };
const error = mapped.fail();
let sink;

/** Median ns per call over `rounds` rounds of `n` synchronous calls (after a warm-up round). */
function time(fn, n = 20_000, rounds = 7) {
  for (let i = 0; i < n; i++) sink = fn();
  const results = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink = fn();
    results.push(Number(process.hrtime.bigint() - t0) / n);
  }
  return results.sort((a, b) => a - b)[rounds >> 1];
}

async function timeAsync(fn, n = 300, rounds = 5) {
  for (let i = 0; i < 20; i++) sink = await fn();
  const results = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink = await fn();
    results.push(Number(process.hrtime.bigint() - t0) / n);
  }
  return results.sort((a, b) => a - b)[rounds >> 1];
}

await sdk.captureLocation(error, on); // warm the map cache
await plain.report(sdk.captureLocation, on);
const check = {
  callSiteMapped: await mapped.report(sdk.captureLocation, on),
  throwSiteMapped: sdk.captureLocation(error, on),
  callSitePlain: await plain.report(sdk.captureLocation, on),
};

const rows = [
  ['ceiling: `new Error()` only (structured capture, no formatting)', time(() => new Error())],
  ['ceiling: `new Error().stack` (capture + format, 10 frames)', time(() => plain.stack())],
  [
    'peer: Sentry `defaultStackParser(new Error().stack)`',
    time(() => defaultStackParser(plain.stack())),
  ],
  ['baseline: captureLocation off', time(() => plain.report(sdk.captureLocation, off))],
  [
    'call site, sourceMaps off: in the reporting call (sync part)',
    time(() => plain.report(sdk.captureLocation, noMaps)),
  ],
  [
    'call site, sourceMaps off: total (microtask awaited)',
    await timeAsync(() => plain.report(sdk.captureLocation, noMaps), 5000),
  ],
  [
    'call site, sourceMaps on, script without map (cached miss): total',
    await timeAsync(() => plain.report(sdk.captureLocation, on), 5000),
  ],
  [
    'call site, sourceMaps on, map warm: total',
    await timeAsync(() => mapped.report(sdk.captureLocation, on), 5000),
  ],
  [
    'Error description (throw site), sourceMaps off (sync)',
    time(() => sdk.captureLocation(error, noMaps)),
  ],
  ['Error description (throw site), map warm (sync)', time(() => sdk.captureLocation(error, on))],
  [
    'Error description, map cold (read + parse + lookup, awaited)',
    await timeAsync(() => {
      sdk.clearMapCache();
      return sdk.captureLocation(error, on);
    }),
  ],
];

// Node's own source-map support (peer for maps): every `.stack` is formatted through the map.
const child = join(dir, 'node-maps.mjs');
writeFileSync(
  child,
  `const app = await import(${JSON.stringify(pathToFileURL(join(dir, 'dist/app.js')).href)});\n` +
    `let s; for (let i = 0; i < 2000; i++) s = app.stack();\n` +
    `const r = []; for (let k = 0; k < 7; k++) { const t = process.hrtime.bigint();\n` +
    `for (let i = 0; i < 2000; i++) s = app.stack(); r.push(Number(process.hrtime.bigint() - t) / 2000); }\n` +
    `console.log(r.sort((a, b) => a - b)[3]);\n`,
);
const nodeMaps = Number(execFileSync(process.execPath, ['--enable-source-maps', child]).toString());
rows.push(['peer: `node --enable-source-maps`, `new Error().stack` (mapped by Node)', nodeMaps]);

const mapBytes = statSync(join(dir, 'dist/app.js.map')).size;
console.log(`Node ${process.version}, ${MODULES}-module app bundle, map ${mapBytes} bytes`);
console.log(`checks: ${JSON.stringify(check)}`);
console.log('| Case | ns per call |\n|---|---|');
for (const [name, ns] of rows)
  console.log(`| ${name} | ${Math.round(ns).toLocaleString('en-US')} |`);
rmSync(dir, { recursive: true, force: true });
