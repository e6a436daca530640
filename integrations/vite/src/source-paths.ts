import { dirname, posix, relative, resolve, sep } from 'node:path';

const toPosix = (p: string) => p.split(sep).join('/');

/**
 * `sourcemapPathTransform` for hidden maps: rewrites each source so that, resolved against the
 * map's URL on the site, it lands on its project-relative path (`src/App.tsx`), whatever `outDir`
 * is. The browser resolver resolves `sources` against the map URL, as the source-map spec says.
 */
export function projectRelativeSources(root: string, outDir: string) {
  return (source: string, mapPath: string): string => {
    const fromRoot = toPosix(relative(root, resolve(dirname(mapPath), source)));
    const mapDir = toPosix(relative(outDir, dirname(mapPath)));
    return posix.relative(`/${mapDir}`, `/${fromRoot}`);
  };
}
