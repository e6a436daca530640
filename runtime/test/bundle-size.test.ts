// Browser bundle budget: createClient + the 16 methods, minified and gzipped, without the sealing
// code (and without the lazy chunks a default browser client loads only when needed: signing and
// sealing glue, source-map resolver, stack parsing, debug formatting, the retrying transport, the
// renderer of non-string descriptions). The target is 4 KiB, met since bundle engineer 3
// (4042 B, see the README "Bundle size"); the ceiling is the target itself.
import { expect, it } from 'vitest';
import { measureBrowserBundle } from './helpers/bundle-size.ts';

const TARGET = 4 * 1024;
const CEILING = TARGET;

it(`browser bundle stays under ${CEILING} B gzip (target ${TARGET} B)`, async () => {
  const size = await measureBrowserBundle();
  console.log(
    `browser bundle: ${size.minified} B minified, ${size.gzip} B gzip; target ${TARGET} B (${TARGET - size.gzip} B to spare); lazy chunks:`,
    size.lazy,
  );
  const lazy = size.lazy.map((c) => c.file).join(' ');
  // `secure` holds the sealing and signing code (tweetnacl-sealedbox-js stays external here).
  for (const chunk of [
    /secure/,
    /transport/,
    /browser-maps/,
    /browser-locate/,
    /debug-format/,
    /describe/,
  ])
    expect(lazy).toMatch(chunk);
  expect(size.gzip).toBeLessThanOrEqual(CEILING);
});
