// Browser start-up budget, 4 KiB gzip, on the BUILT package as a user's bundler ships it (run
// `npm run build -w runtime` first; the root `npm test` builds before testing): an app of
// `createClient` + one report, built by esbuild with splitting and by Vite's production build.
// Lazy chunks (transport, the offline queue, stack parsing, debug formatting, describe, beforeSend,
// source maps, signing + sealing) load only when a client needs them and are not counted.
import { expect, it } from 'vitest';
import { measureEsbuild, measureVite } from './helpers/bundle-size.ts';

const BUDGET = 4 * 1024;

it(`esbuild (splitting): the built package adds at most ${BUDGET} B gzip at start-up`, async () => {
  const size = await measureEsbuild();
  console.log(
    `esbuild, built package: ${size.minified} B minified, ${size.gzip} B gzip (${BUDGET - size.gzip} B to spare); lazy:`,
    size.lazy,
  );
  const lazy = size.lazy.map((c) => c.file).join(' ');
  for (const chunk of [
    /secure/,
    /transport/,
    /browser-maps/,
    /browser-locate/,
    /debug-format/,
    /describe/,
    /before-send/,
    /offline/,
  ])
    expect(lazy).toMatch(chunk);
  // The sealing code (and with it the @noble primitives) is lazy: tens of KB, never at start-up.
  expect(size.lazy.find((c) => /secure/.test(c.file))!.bytes).toBeGreaterThan(20_000);
  expect(size.gzip).toBeGreaterThan(2000); // the client really is in there
  expect(size.gzip).toBeLessThanOrEqual(BUDGET);
});

it(`Vite production build: the built package adds at most ${BUDGET} B gzip at start-up`, async () => {
  const size = await measureVite();
  console.log(
    `vite, built package: start-up ${size.gzip} B gzip = Vite's preload runtime ${size.floor} B + Svc ${size.sdk} B (${BUDGET - size.sdk} B to spare); lazy:`,
    size.lazy,
  );
  expect(size.lazy.some((c) => /secure/.test(c.file))).toBe(true);
  expect(size.sdk).toBeGreaterThan(2000);
  expect(size.sdk).toBeLessThanOrEqual(BUDGET);
});
