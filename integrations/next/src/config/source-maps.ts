// `withSvc(config, { sourceMaps: 'upload' })`: the config changes of a build that uploads its maps.
// Next writes browser maps (`productionBrowserSourceMaps`) and server maps, Turbopack with debug
// IDs; when the compile is done (`compiler.runAfterProductionCompile`, before prerendering), the
// runtime's `@svc/runtime/sourcemaps` uploads both, keyed by the build's release, and removes every
// map and map comment from `.next/static` (server maps stay on disk: the server maps its own
// frames with them). The browser learns the release and that its frames are mapped by the service
// through `env`.
import { isAbsolute, join, relative } from 'node:path';
import { normalPrefix, type OutputFolder, uploadSourceMaps } from '@svc/runtime/sourcemaps';
import { UPLOADED_SOURCE_MAPS_ENV } from '../shared/source-maps.ts';

type Hook = (metadata: { projectDir: string; distDir: string }) => Promise<void>;

const objectAt = (config: object, key: string): Record<string, unknown> => {
  const value = (config as Record<string, unknown>)[key];
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
};

/**
 * The URL path `.next/static` is served under: `_next/static/` below the `assetPrefix`'s path
 * (a CDN) or else the `basePath`.
 */
export function staticPrefix(config: object): string {
  const { assetPrefix, basePath } = config as { assetPrefix?: unknown; basePath?: unknown };
  const under = typeof assetPrefix === 'string' && assetPrefix ? assetPrefix : basePath;
  return `${normalPrefix(typeof under === 'string' ? under : '')}_next/static/`;
}

/** The folders of a Next build: the browser's (deployed: stripped) and the server's (kept). */
export function buildFolders(config: object, projectDir: string, distDir: string): OutputFolder[] {
  const dist = isAbsolute(distDir) ? distDir : join(projectDir, distDir);
  const server = relative(projectDir, join(dist, 'server')).split('\\').join('/');
  return [
    { dir: join(dist, 'static'), pathPrefix: staticPrefix(config), strip: true },
    { dir: join(dist, 'server'), pathPrefix: `${server}/`, strip: false },
  ];
}

/** The upload, after the user's own `runAfterProductionCompile` (if any). */
function afterCompile(
  config: object,
  release: string,
  env: Record<string, string | undefined>,
  serviceUrl: string | undefined,
): Hook {
  const own = objectAt(config, 'compiler').runAfterProductionCompile as Hook | undefined;
  return async (metadata) => {
    if (typeof own === 'function') await own(metadata);
    await uploadSourceMaps({
      folders: buildFolders(config, metadata.projectDir, metadata.distDir),
      release,
      projectRoot: metadata.projectDir,
      env,
      ...(serviceUrl ? { serviceUrl } : {}),
    });
  };
}

/** The config of a build with `sourceMaps: 'upload'`, and the `env` entries the browser gets. */
export function withUpload<C extends object>(
  config: C,
  env: Record<string, string>,
  upload: { release: string; env: Record<string, string | undefined>; serviceUrl?: string },
): C {
  env[UPLOADED_SOURCE_MAPS_ENV] = 'true';
  return {
    ...config,
    productionBrowserSourceMaps: true,
    turbopack: { debugIds: true, ...objectAt(config, 'turbopack') },
    compiler: {
      ...objectAt(config, 'compiler'),
      runAfterProductionCompile: afterCompile(
        config,
        upload.release,
        upload.env,
        upload.serviceUrl,
      ),
    },
  };
}
