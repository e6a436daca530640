// The module's build-time work on the maps, once Nitro has written `.output` (its `compiled`
// hook): the server's maps chained through Vite's SSR maps (Nitro bundles Vite's SSR output, so
// its maps name `.nuxt/dist/server/_nuxt/_id_-x.js`; chained, they name `app/pages/orders/[id].vue`,
// which the server reads on disk); with `sourceMaps: 'upload'`, the client's and the server's
// maps uploaded for the build's release, and none left in `.output/public`.
import { relative } from 'node:path';
import { chainMaps, normalPrefix, uploadSourceMaps } from '@svc/runtime/sourcemaps';

/** What the `compiled` hook needs of Nuxt's and Nitro's options. */
export interface BuildPaths {
  rootDir: string;
  buildDir: string;
  serverDir: string;
  publicDir: string;
  /** `app.cdnURL` when set, else `app.baseURL`: the URL path `.output/public` is served under. */
  publicUrl: string;
}

/** The upload of a build with `sourceMaps: 'upload'`. */
export interface BuildUpload {
  release: string;
  serviceUrl?: string;
  env: Record<string, string | undefined>;
}

export async function afterServerBuild(paths: BuildPaths, upload?: BuildUpload): Promise<void> {
  await chainMaps(paths.serverDir, [paths.buildDir]).catch(() => 0);
  if (!upload) return;
  const server = relative(paths.rootDir, paths.serverDir).split('\\').join('/');
  await uploadSourceMaps({
    folders: [
      { dir: paths.publicDir, pathPrefix: normalPrefix(paths.publicUrl), strip: true },
      { dir: paths.serverDir, pathPrefix: `${server}/`, strip: false },
    ],
    release: upload.release,
    projectRoot: paths.rootDir,
    env: upload.env,
    ...(upload.serviceUrl ? { serviceUrl: upload.serviceUrl } : {}),
  });
}
