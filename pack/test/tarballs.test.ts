// The tarballs of the public packages, as `npm pack` wrote them (packed once, see ./setup.ts).
import { describe, expect, inject, it } from 'vitest';

const { packed, badEngines } = inject('fresh');

describe('the tarballs', () => {
  it('install with their frameworks on this Node without an EBADENGINE warning', () => {
    // npm's own list of packages whose `engines` exclude this Node (Node 24: pack runs there; the
    // install on Node 20 and 22 of what claims them is ./engines.test.ts).
    expect(badEngines).toEqual([]);
  });

  it('ship a LICENSE, package.json in exports, no source maps, no stray files', () => {
    for (const p of packed) {
      expect(p.files, p.name).toContain('LICENSE');
      expect(
        p.files.filter((f) => f.endsWith('.map')),
        p.name,
      ).toEqual([]);
      // Only what the package is: its build, its bin shim, the type shim of the Vite plugin, the
      // node10 pointers of the subpaths (`kit/`, `testing/`, `sourcemaps/package.json`), and the
      // README's longer guides (`docs/*.md`).
      expect(
        p.files.filter(
          (f) =>
            !/^(dist\/|bin\/|LICENSE$|README\.md$|package\.json$|virtual\.d\.ts$|(kit|testing|sourcemaps)\/package\.json$|docs\/[\w-]+\.md$)/.test(
              f,
            ),
        ),
        p.name,
      ).toEqual([]);
      expect(
        p.files.filter((f) => /^dist\/.*README/.test(f)),
        p.name,
      ).toEqual([]);
      expect(p.manifest.exports['./package.json'], p.name).toBe('./package.json');
      expect(p.manifest.license, p.name).toBe('MIT');
    }
  });

  it('depend on their siblings by exact version, and @svc/server on no client code', () => {
    const versions = Object.fromEntries(packed.map((p) => [p.name, p.version]));
    for (const p of packed)
      for (const [dep, range] of Object.entries<string>(p.manifest.dependencies ?? {}))
        if (dep in versions) expect([p.name, dep, range]).toEqual([p.name, dep, versions[dep]]);
    const server = packed.find((p) => p.name === '@svc/server')!;
    expect(Object.keys(server.manifest.dependencies)).not.toContain('@svc/runtime');
    // The WAL checkpointer's thread is a file of the build, started by path (never `eval`).
    expect(server.files).toContain('dist/checkpoint-worker.js');
  });
});
