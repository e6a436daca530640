import { describe, expect, it } from 'vitest';
import { projectRelativeSources } from '../src/source-paths.ts';

describe('projectRelativeSources', () => {
  it('resolves to the project-relative path against the map URL, outDir inside the root', () => {
    const t = projectRelativeSources('/app', '/app/dist');
    const source = t('../../src/App.tsx', '/app/dist/assets/index-abc.js.map');
    expect(source).toBe('../src/App.tsx');
    expect(new URL(source, 'https://shop.example/assets/index-abc.js.map').pathname).toBe(
      '/src/App.tsx',
    );
  });

  it('gives the same answer when outDir is elsewhere on disk', () => {
    const t = projectRelativeSources('/work/app', '/tmp/out');
    expect(t('../../../work/app/src/App.tsx', '/tmp/out/assets/index.js.map')).toBe(
      '../src/App.tsx',
    );
  });
});
