// `withSvc(config, { sourceMaps: 'upload' })`: the config a build gets. The build itself (both
// bundlers, the maps uploaded to the reference service, none left in `.next/static`) runs in the
// fresh-app matrix (pack/test/matrix/next.test.ts).
import { describe, expect, it } from 'vitest';
import { buildFolders, staticPrefix } from '../../src/config/source-maps.ts';
import { withSvc } from '../../src/config/with-svc.ts';

type Built = {
  env: Record<string, string>;
  productionBrowserSourceMaps?: boolean;
  turbopack?: Record<string, unknown>;
  compiler?: { runAfterProductionCompile?: (m: unknown) => Promise<void> };
};

describe("withSvc(config, { sourceMaps: 'upload' })", () => {
  it('in a production build: browser maps, Turbopack debug IDs, the upload after the compile', () => {
    const processEnv: Record<string, string | undefined> = { NODE_ENV: 'production' };
    const config = withSvc(
      { turbopack: { root: '/repo' } },
      { sourceMaps: 'upload', processEnv },
    ) as unknown as Built;
    expect(config.productionBrowserSourceMaps).toBe(true);
    expect(config.turbopack).toEqual({ debugIds: true, root: '/repo' });
    expect(typeof config.compiler?.runAfterProductionCompile).toBe('function');
    // The browser gets the build's release and knows its frames are mapped by the service.
    expect(config.env.NEXT_PUBLIC_SERVICE_RELEASE).toMatch(/^build-\d{8}T\d{6}Z-[0-9a-z]{6}$/);
    expect(config.env.NEXT_PUBLIC_SVC_UPLOADED_SOURCE_MAPS).toBe('true');
    // Next's workers load the config again and inherit the environment: the same release.
    expect(processEnv.SVC_BUILD_RELEASE).toBe(config.env.NEXT_PUBLIC_SERVICE_RELEASE);
    const again = withSvc(
      {},
      { sourceMaps: 'upload', processEnv: { ...processEnv } },
    ) as unknown as Built;
    expect(again.env.NEXT_PUBLIC_SERVICE_RELEASE).toBe(config.env.NEXT_PUBLIC_SERVICE_RELEASE);
  });

  it("keeps the user's release (option, SERVICE_RELEASE, or the config's env) as the maps' key", () => {
    const production = { NODE_ENV: 'production', SERVICE_RELEASE: 'shop@3' };
    const fromEnv = withSvc(
      {},
      { sourceMaps: 'upload', processEnv: { ...production } },
    ) as unknown as Built;
    expect(fromEnv.env.NEXT_PUBLIC_SERVICE_RELEASE).toBe('shop@3');
    const own = withSvc(
      { env: { NEXT_PUBLIC_SERVICE_RELEASE: 'mine' } },
      { sourceMaps: 'upload', processEnv: { ...production } },
    ) as unknown as Built;
    expect(own.env.NEXT_PUBLIC_SERVICE_RELEASE).toBe('mine');
  });

  it("runs the app's own runAfterProductionCompile first", async () => {
    const calls: string[] = [];
    const config = withSvc(
      {
        distDir: '.next-none',
        compiler: { runAfterProductionCompile: async () => void calls.push('own') },
      },
      { sourceMaps: 'upload', processEnv: { NODE_ENV: 'production' } },
    ) as unknown as Built;
    await config.compiler!.runAfterProductionCompile!({
      projectDir: '/nonexistent',
      distDir: '.next-none',
    });
    expect(calls).toEqual(['own']);
  });

  it('changes nothing in next dev (NODE_ENV development): nothing is uploaded there', () => {
    const config = withSvc(
      {},
      { sourceMaps: 'upload', processEnv: { NODE_ENV: 'development' } },
    ) as unknown as Built;
    expect(config.productionBrowserSourceMaps).toBeUndefined();
    expect(config.env.NEXT_PUBLIC_SVC_UPLOADED_SOURCE_MAPS).toBeUndefined();
    expect(config.env.NEXT_PUBLIC_SERVICE_RELEASE).toBeUndefined();
  });
});

describe('the folders of a Next build', () => {
  it('.next/static under _next/static/ (basePath, or the assetPrefix path), .next/server kept', () => {
    expect(staticPrefix({})).toBe('_next/static/');
    expect(staticPrefix({ basePath: '/docs' })).toBe('docs/_next/static/');
    expect(staticPrefix({ basePath: '/docs', assetPrefix: 'https://cdn.example.com/shop' })).toBe(
      'shop/_next/static/',
    );
    expect(buildFolders({}, '/app', '/app/.next')).toEqual([
      { dir: '/app/.next/static', pathPrefix: '_next/static/', strip: true },
      { dir: '/app/.next/server', pathPrefix: '.next/server/', strip: false },
    ]);
    expect(buildFolders({}, '/app', 'build')[1]).toEqual({
      dir: '/app/build/server',
      pathPrefix: 'build/server/',
      strip: false,
    });
  });
});
