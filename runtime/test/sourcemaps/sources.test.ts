import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectSource, withProjectSources } from '../../src/sourcemaps/sources.ts';

const ROOT = '/home/me/shop';

describe('projectSource', () => {
  const source = (s: string | null, mapDir = `${ROOT}/dist/assets`) =>
    projectSource(s, mapDir, ROOT);

  it('resolves paths relative to the map, and absolute ones, against the project root', () => {
    expect(source('../../src/App.tsx')).toBe('src/App.tsx');
    expect(source('../src/App.tsx', `${ROOT}/dist`)).toBe('src/App.tsx');
    expect(source(`${ROOT}/app/pages/orders/[id].vue`)).toBe('app/pages/orders/[id].vue');
    expect(source(`file://${ROOT}/src/main.ts`)).toBe('src/main.ts');
    expect(source('../../app/boom/%5Bid%5D/page.tsx')).toBe('app/boom/[id]/page.tsx');
  });

  it('reads bundler URLs as the Node SDK reads them', () => {
    expect(source('webpack://_N_E/./app/page.tsx')).toBe('app/page.tsx');
    expect(source('webpack://_N_E/./node_modules/next/dist/client/index.js')).toBe(
      'node_modules/next/dist/client/index.js',
    );
    expect(source('turbopack:///[project]/app/page.tsx')).toBe('app/page.tsx');
  });

  it('names dependencies from their last node_modules/, and never climbs out of the project', () => {
    expect(source('../../node_modules/.pnpm/react@19/node_modules/react/index.js')).toBe(
      'node_modules/react/index.js',
    );
    expect(source('../../../../shared/ui/button.tsx')).toBe('shared/ui/button.tsx');
    expect(source('/opt/other/x.ts')).toBe('opt/other/x.ts');
    expect(source('\0vite/preload-helper.js')).toBe('vite/preload-helper.js');
    expect(source(null)).toBeNull();
  });
});

describe('withProjectSources', () => {
  it('applies sourceRoot, drops it, and rewrites index map sections; keeps the rest', () => {
    const map = {
      version: 3,
      file: 'index.js',
      sourceRoot: '../../',
      sources: ['src/a.ts', null],
      sourcesContent: ['a', null],
      names: ['a'],
      mappings: 'AAAA',
      debugId: 'x',
    };
    expect(withProjectSources(map, `${ROOT}/dist/assets`, ROOT)).toEqual({
      version: 3,
      file: 'index.js',
      sources: ['src/a.ts', null],
      sourcesContent: ['a', null],
      names: ['a'],
      mappings: 'AAAA',
      debugId: 'x',
    });
    const indexed = { version: 3, sections: [{ offset: { line: 0, column: 0 }, map: { ...map } }] };
    const out = withProjectSources(indexed, `${ROOT}/dist/assets`, ROOT) as typeof indexed;
    expect(out.sections[0]!.map.sources).toEqual(['src/a.ts', null]);
  });

  it("reads a relative sourceRoot from the project root when only there it names a file (wrangler's outdir)", () => {
    const root = mkdtempSync(join(tmpdir(), 'svc-sources-'));
    try {
      mkdirSync(join(root, 'src'));
      mkdirSync(join(root, 'dist'));
      writeFileSync(join(root, 'src/index.ts'), 'export {};\n');
      const map = {
        version: 3,
        sourceRoot: 'dist',
        sources: ['../src/index.ts', '../x.ts'],
        mappings: '',
      };
      // src/index.ts exists only from the project root; x.ts nowhere: read beside the map (spec).
      expect(withProjectSources(map, join(root, 'dist'), root).sources).toEqual([
        'src/index.ts',
        'dist/x.ts',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

it("reads Turbopack's [project]/ as the workspace root in a monorepo (the file is on disk at build time)", () => {
  const workspace = mkdtempSync(join(tmpdir(), 'svc-workspace-'));
  try {
    mkdirSync(join(workspace, 'apps/web/app'), { recursive: true });
    writeFileSync(join(workspace, 'apps/web/app/page.tsx'), '');
    mkdirSync(join(workspace, 'packages/ui'), { recursive: true });
    writeFileSync(join(workspace, 'packages/ui/button.tsx'), '');
    const web = join(workspace, 'apps/web');
    const source = (s: string) => projectSource(s, join(web, '.next/static/chunks'), web);
    expect(source('turbopack:///[project]/apps/web/app/page.tsx')).toBe('app/page.tsx');
    expect(source('turbopack:///[project]/packages/ui/button.tsx')).toBe('packages/ui/button.tsx');
    expect(source('turbopack:///[turbopack]/browser/runtime/base.ts')).toBe(
      '[turbopack]/browser/runtime/base.ts',
    );
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});
