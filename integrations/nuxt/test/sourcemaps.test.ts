import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { registryStatement, sourceMapRegistry } from '../src/sourcemaps';

const REGISTRY = Symbol.for('svc.sourcemaps');

describe('source map registry', () => {
  it('registers chunk pathnames -> map URLs relative to the entry, at run time', async () => {
    const code = registryStatement('_nuxt/entry.abc.js', [
      ['_nuxt/entry.abc.js', '_nuxt/entry.abc.js.map'],
      ['_nuxt/page.def.js', '_nuxt/page.def.js.map'],
      ['_nuxt/nested/x.js', '_nuxt/nested/x.js.map'],
    ]);
    // Run it as a real ES module so `import.meta.url` is the entry's own URL.
    const dir = await mkdtemp(join(tmpdir(), 'svc-nuxt-'));
    const file = join(dir, 'entry.abc.js');
    await writeFile(file, code);
    delete (globalThis as Record<symbol, unknown>)[REGISTRY];
    await import(pathToFileURL(file).href);
    const base = pathToFileURL(`${dir}/`);
    expect((globalThis as Record<symbol, unknown>)[REGISTRY]).toEqual({
      [new URL('entry.abc.js', base).pathname]: new URL('entry.abc.js.map', base).href,
      [new URL('page.def.js', base).pathname]: new URL('page.def.js.map', base).href,
      [new URL('nested/x.js', base).pathname]: new URL('nested/x.js.map', base).href,
    });
  });

  it('appends to entry chunks only, listing chunks that have a map', () => {
    const plugin = sourceMapRegistry();
    const bundle: Record<string, any> = {
      'e.js': { type: 'chunk', isEntry: true, fileName: '_nuxt/e.js', code: 'A', map: {} },
      'p.js': { type: 'chunk', isEntry: false, fileName: '_nuxt/p.js', code: 'B', map: {} },
      'n.js': { type: 'chunk', isEntry: false, fileName: '_nuxt/n.js', code: 'C', map: null },
      'c.css': { type: 'asset', fileName: '_nuxt/c.css', source: '' },
    };
    (plugin.generateBundle as any).call({}, {}, bundle, false);
    expect(bundle['e.js'].code).toMatch(/^A\n;/);
    expect(bundle['e.js'].code).toContain('["./p.js","./p.js.map"]');
    expect(bundle['e.js'].code).not.toContain('n.js');
    expect(bundle['p.js'].code).toBe('B');
  });
});
