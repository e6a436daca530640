// Location-capture cost per reporting call (Node). Run from the repo root: node bench/location/run.mjs
// Builds the capture code and a fake app (with and without a source map) into a temp dir with esbuild,
// then times each case in this one process, next to the raw `new Error().stack` ceiling and Sentry's
// stack parser (peer). A child process times Node's own `--enable-source-maps` stack formatting.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
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
/** Results are kept here so the engine cannot drop the timed calls as dead code. */
export let sink;

/**
 * Each case runs `n` calls per round; rounds interleave all cases so that load from other processes
 * hits every case alike. Reports the median and the minimum ns per call over the rounds.
 */
async function measure(cases, rounds = 9) {
  const samples = cases.map(() => []);
  for (const c of cases) await c.run(Math.max(1, c.n >> 2)); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const [i, c] of cases.entries()) samples[i].push((await c.run(c.n)) / c.n);
  }
  return cases.map((c, i) => {
    const s = samples[i].sort((a, b) => a - b);
    return [c.name, s[s.length >> 1], s[0]];
  });
}

/** Lets queued microtasks and I/O callbacks run (outside any timed section). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A synchronous case: `fn` called `n` times, timed before yielding, so work that `fn` defers to
 * microtasks is not counted (it runs in `settle`, untimed). Returns elapsed ns.
 */
const sync = (name, fn, n = 5000) => ({
  name,
  n,
  run: async (k) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < k; i++) sink = fn();
    const elapsed = Number(process.hrtime.bigint() - t0);
    await settle();
    return elapsed;
  },
});

/** An asynchronous case: each call awaited before the next. Returns elapsed ns. */
const awaited = (name, fn, n = 2000) => ({
  name,
  n,
  run: async (k) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < k; i++) sink = await fn();
    return Number(process.hrtime.bigint() - t0);
  },
});

await sdk.captureLocation(error, on); // warm the map cache
await plain.report(sdk.captureLocation, on);
const check = {
  callSiteMapped: await mapped.report(sdk.captureLocation, on),
  throwSiteMapped: sdk.captureLocation(error, on),
  callSitePlain: await plain.report(sdk.captureLocation, on),
};

const rows = await measure([
  sync('ceiling: `new Error()` only (structured capture, no formatting)', () => new Error()),
  sync('ceiling: `new Error().stack` (capture + format)', () => plain.stack()),
  sync('peer: Sentry `defaultStackParser(new Error().stack)`', () =>
    defaultStackParser(plain.stack()),
  ),
  sync('baseline: captureLocation off', () => plain.report(sdk.captureLocation, off)),
  sync('call site, sourceMaps off: inside the reporting call (sync part)', () =>
    plain.report(sdk.captureLocation, noMaps),
  ),
  awaited('call site, sourceMaps off: total (microtask awaited)', () =>
    plain.report(sdk.captureLocation, noMaps),
  ),
  awaited('call site, sourceMaps on, script without map (cached miss): total', () =>
    plain.report(sdk.captureLocation, on),
  ),
  awaited('call site, sourceMaps on, map warm: total', () =>
    mapped.report(sdk.captureLocation, on),
  ),
  sync('Error description (throw site), sourceMaps off (sync)', () =>
    sdk.captureLocation(error, noMaps),
  ),
  sync('Error description (throw site), map warm (sync)', () => sdk.captureLocation(error, on)),
  awaited(
    'Error description, map cold: read + parse + lookup (awaited)',
    () => {
      sdk.clearMapCache();
      return sdk.captureLocation(error, on);
    },
    40,
  ),
]);

// Node's own source-map support (peer for maps): every `.stack` is formatted through the map.
const child = join(dir, 'node-maps.mjs');
writeFileSync(
  child,
  `const app = await import(${JSON.stringify(pathToFileURL(join(dir, 'dist/app.js')).href)});\n` +
    `let s; for (let i = 0; i < 2000; i++) s = app.stack();\n` +
    `const r = []; for (let k = 0; k < 9; k++) { const t = process.hrtime.bigint();\n` +
    `for (let i = 0; i < 2000; i++) s = app.stack(); r.push(Number(process.hrtime.bigint() - t) / 2000); }\n` +
    `r.sort((a, b) => a - b); console.log(JSON.stringify([r[4], r[0]]));\n`,
);
const nodeMaps = JSON.parse(
  execFileSync(process.execPath, ['--enable-source-maps', child]).toString(),
);
rows.push([
  'peer: `node --enable-source-maps` child, `new Error().stack` mapped by Node (not interleaved)',
  ...nodeMaps,
]);

const mapBytes = statSync(join(dir, 'dist/app.js.map')).size;
console.log(
  `Node ${process.version}, ${MODULES}-module app bundle, map ${mapBytes} bytes, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`checks: ${JSON.stringify(check)}`);
const fmt = (ns) => Math.round(ns).toLocaleString('en-US');
console.log('| Case | median ns/call | min ns/call |\n|---|---|---|');
for (const [name, median, min] of rows) console.log(`| ${name} | ${fmt(median)} | ${fmt(min)} |`);
rmSync(dir, { recursive: true, force: true });
