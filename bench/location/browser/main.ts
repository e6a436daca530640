// Bench page: times the browser captureLocation in Chromium (see ../browser.mjs).
import { captureLocation } from 'svc-location/browser.ts';
import type { LocationOptions } from 'svc-location/types.ts';
import { modules } from './modules.ts';

const off: LocationOptions = { captureLocation: false, lineNumbers: true, sourceMaps: false };
const noMaps: LocationOptions = { ...off, captureLocation: true };
const maps: LocationOptions = { ...noMaps, sourceMaps: true };

function fail(): Error {
  return new Error(`checkout failed in ${modules.length} modules`);
}

async function time(n: number, fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return ((performance.now() - t0) / n) * 1000; // us per call
}

(window as unknown as Record<string, unknown>).bench = async () => {
  const error = fail();
  void error.stack; // the description text has formatted it already in the real client
  const out: Record<string, unknown> = {};
  const t0 = performance.now();
  out.first = await captureLocation(error, maps); // resolver chunk import + chunk + map fetch + parse
  out.firstUs = (performance.now() - t0) * 1000;
  const resolver = await import('svc-location/browser-maps.ts');
  const chunk = new URL(import.meta.url).href;
  const rows: [string, number][] = [];
  for (let round = 0; round < 5; round++) {
    rows.push(['ceiling: new Error().stack', await time(2000, () => new Error().stack)]);
    rows.push(['capture off', await time(2000, () => captureLocation(error, off))]);
    rows.push([
      'Error description, sourceMaps off',
      await time(2000, () => captureLocation(error, noMaps)),
    ]);
    rows.push([
      'call site, sourceMaps off (awaited)',
      await time(2000, () => captureLocation('text', noMaps)),
    ]);
    rows.push([
      'Error description, map warm (awaited)',
      await time(2000, () => captureLocation(error, maps)),
    ]);
    rows.push([
      'Error description, map cold: chunk + map fetch + parse (awaited)',
      await time(20, () => {
        resolver.clearMapCache();
        return captureLocation(error, maps);
      }),
    ]);
    rows.push([
      'floor: fetch chunk + fetch map, bodies read, no parsing',
      await time(20, async () => {
        await (await fetch(chunk, { cache: 'no-store' })).text();
        await (await fetch(`${chunk}.map`, { cache: 'no-store' })).text();
      }),
    ]);
  }
  out.rows = rows;
  out.resolved = await captureLocation(error, maps);
  return out;
};
