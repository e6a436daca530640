// Maps of maps on disk, as Nuxt has them: an intermediate build (esbuild: src/ -> build/, with its
// maps) copied into a bundle (out/, two banner lines first, with a map naming build/ line for line,
// as a bundler that does not read its inputs' maps writes). Chained, out/'s map names src/, with its
// content; a source outside the intermediate folder is left as it was.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { SourceMapConsumer, SourceMapGenerator } from 'source-map-js';
import { afterEach, expect, it } from 'vitest';
import { chainMaps } from '../../src/sourcemaps/chain.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const PAGE = `export function renderOrder(id: string): string {
  if (id === '7') throw new Error(\`Order \${id} failed to render\`);
  return \`<p>\${id}</p>\`;
}
`;

/** out/bundle.js: two banner lines (mapped to src/banner.js), then build/page.js line for line. */
function bundle(root: string): void {
  const inner = readFileSync(join(root, 'build/page.js'), 'utf8')
    .replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n')
    .split('\n');
  const map = new SourceMapGenerator({ file: 'bundle.js' });
  for (const line of [1, 2])
    map.addMapping({
      generated: { line, column: 0 },
      original: { line: 1, column: 0 },
      source: '../src/banner.js',
    });
  for (const [i, text] of inner.entries())
    if (text.trim())
      map.addMapping({
        generated: { line: i + 3, column: 0 },
        original: { line: i + 1, column: 0 },
        source: '../build/page.js',
      });
  mkdirSync(join(root, 'out'));
  writeFileSync(
    join(root, 'out/bundle.js'),
    `// a\n// b\n${inner.join('\n')}//# sourceMappingURL=bundle.js.map\n`,
  );
  writeFileSync(join(root, 'out/bundle.js.map'), map.toString());
}

it('chains an outer map through the maps of the intermediate files it names', async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-chain-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src/page.ts'), PAGE);
  await build({
    absWorkingDir: dir,
    entryPoints: ['src/page.ts'],
    outfile: 'build/page.js',
    format: 'esm',
    sourcemap: 'linked',
    sourcesContent: true,
    logLevel: 'silent',
  });
  bundle(dir);
  const mapFile = join(dir, 'out/bundle.js.map');
  expect(JSON.parse(readFileSync(mapFile, 'utf8')).sources).toEqual([
    '../src/banner.js',
    '../build/page.js',
  ]);

  expect(await chainMaps(join(dir, 'out'), [join(dir, 'build')])).toBe(1);
  const after = JSON.parse(readFileSync(mapFile, 'utf8'));
  expect(after.sources).toContain('../src/page.ts');
  expect(after.sources).toContain('../src/banner.js'); // not under build/: as it was
  expect(after.sourcesContent[after.sources.indexOf('../src/page.ts')]).toBe(PAGE);
  // The throw in the bundle maps to line 2 of src/page.ts.
  const code = readFileSync(join(dir, 'out/bundle.js'), 'utf8').split('\n');
  const line = code.findIndex((l) => l.includes('throw new Error')) + 1;
  const original = new SourceMapConsumer(after).originalPositionFor({ line, column: 0 });
  expect([original.source, original.line]).toEqual(['../src/page.ts', 2]);
});

it('leaves a folder whose maps name no intermediate file as it is', async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-chain-'));
  mkdirSync(join(dir, 'out'));
  writeFileSync(join(dir, 'out/a.js'), 'a();\n//# sourceMappingURL=a.js.map\n');
  const map = '{"version":3,"sources":["../src/a.ts"],"names":[],"mappings":"AAAA"}';
  writeFileSync(join(dir, 'out/a.js.map'), map);
  expect(await chainMaps(join(dir, 'out'), [join(dir, 'build')])).toBe(0);
  expect(readFileSync(join(dir, 'out/a.js.map'), 'utf8')).toBe(map);
});
