import { resolve } from 'node:path';
import {
  firstSet,
  type KnownSecret,
  keyShapes,
  knownSecrets,
  type PublicClientOptions,
  type PublicFramework,
  publicVariable,
  readBrowserSettings,
  redact,
} from '@svc/runtime/kit';
import { loadEnv, type Plugin } from 'vite';
import { findBundleLeak } from './leak-guard.ts';
import { projectRelativeSources } from './source-paths.ts';
import { chunkMaps, registryScript } from './sourcemaps.ts';
import { type BuildUpload, buildUpload } from './upload.ts';

/**
 * Options of the `svc()` Vite plugin: the public client options of contract 8.5 (names and
 * documentation from the spec), baked into the page. Each one not given defaults to its variable
 * under `VITE_` (`VITE_SERVICE_API_KEY`, `VITE_SERVICE_ENCRYPTION_PUBLIC_KEY`, ...); the
 * environment and release fall back to `SERVICE_ENVIRONMENT` / `SERVICE_RELEASE`, and the
 * environment to the Vite mode.
 */
export interface SvcViteOptions extends PublicClientOptions {
  /**
   * Address of your Svc service (`https://svc.example.com`), exported as `settings.serviceUrl`.
   * @default env `VITE_SERVICE_URL`, else `SERVICE_URL`, else the runtime's default address
   */
  serviceUrl?: string;
  /**
   * `'upload'`: hidden maps with debug IDs, uploaded to your Svc service after the build (secret
   * key from `SERVICE_KEY_ID` / `SERVICE_SIGNING_SECRET`), then deleted from `outDir`; the service
   * maps the browser's frames. `true`: hidden maps deployed beside the chunks, registered for the
   * browser to fetch (your source is then public). `false`: none.
   * @default false
   */
  sourceMaps?: boolean | 'upload';
}

export const VIRTUAL_ID = 'virtual:svc/config';

/** `svc_pub_`: the publishable key's prefix (contract 2.5, from the spec). */
const publishablePrefix = () =>
  keyShapes().find((shape) => shape.name === 'publishableKey')?.prefix ?? '';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

/** Stops the build for a key that is not publishable; warns about an address that is not a URL. */
function checkSettings(
  framework: PublicFramework,
  apiKey: string | undefined,
  serviceUrl: string | undefined,
  warn: (line: string) => void,
): void {
  if (apiKey && !apiKey.startsWith(publishablePrefix())) {
    throw new Error(
      `[svc] ${publicVariable(framework, 'apiKey')} must be a publishable key (${publishablePrefix()}...). ` +
        'Secret keys sign requests on a server and must never reach the browser.',
    );
  }
  if (serviceUrl && !/^https?:\/\/[^/?#\s]+[^?#\s]*$/i.test(serviceUrl.trim())) {
    warn(
      `[svc] ${publicVariable(framework, 'serviceUrl')} ${redact(JSON.stringify(serviceUrl), [])} is not an ` +
        'absolute http(s) URL: the browser client will stay disabled. Example: ' +
        `${publicVariable(framework, 'serviceUrl')}=https://svc.example.com`,
    );
  }
}

/**
 * The Vite plugin: serves `virtual:svc/config` (`config`, the client options, and `settings`, the
 * service address: `initShared(config, settings)`), fails the build when a
 * server secret would ship to the browser, and turns on hidden source maps when `sourceMaps`.
 */
export function svc(options: SvcViteOptions = {}): Plugin {
  return svcFor('vite', options);
}

/**
 * The same plugin for another Vite-built framework's browser: its public variables
 * (`PUBLIC_SERVICE_URL` for SvelteKit) are read instead of Vite's (`@svc/sveltekit/vite`,
 * `@svc/react-router/vite`).
 */
export function svcFor(framework: PublicFramework, options: SvcViteOptions = {}): Plugin {
  const plugin = vitePlugin(framework, options);
  // SvelteKit 3 refuses plugins with this hook; server-rendered apps have no index.html to write
  // the source-map registry into anyway (the browser fetches `<chunk>.map` instead).
  if (framework !== 'vite') delete plugin.transformIndexHtml;
  return plugin;
}

function vitePlugin(framework: PublicFramework, options: SvcViteOptions): Plugin {
  let config: Record<string, unknown> = {};
  let settings: { serviceUrl?: string } = {};
  let forbidden: KnownSecret[] = [];
  let base = '/';
  let sourcePaths: ReturnType<typeof projectRelativeSources> | undefined;
  let upload: BuildUpload | undefined;
  return {
    name: 'svc',
    config(user) {
      if (!options.sourceMaps) return;
      const build: Record<string, unknown> = {};
      if (!user.build?.sourcemap) build.sourcemap = 'hidden';
      // Rolldown writes `//# debugId=` into each chunk and `debugId` into its map.
      if (options.sourceMaps === 'upload')
        build.rolldownOptions = { output: { sourcemapDebugIds: true } };
      return { build };
    },
    configResolved(resolved) {
      // `.env*` files (unless `envDir: false`) under the process environment, all prefixes.
      const env = { ...loadEnv(resolved.mode, resolved.envDir, ''), ...process.env };
      const { sourceMaps = false, ...given } = options;
      const { serviceUrl, ...client } = firstSet<SvcViteOptions>(
        given,
        readBrowserSettings(env, framework),
        { environment: resolved.mode },
      );
      // Uploads belong to production builds; `vite dev` serves the sources themselves.
      upload =
        sourceMaps === 'upload' && resolved.command === 'build'
          ? buildUpload(resolved, env, client.release, serviceUrl)
          : undefined;
      if (upload) client.release = upload.release;
      checkSettings(framework, client.apiKey, serviceUrl, (line) => resolved.logger.warn(line));
      settings = {
        ...(serviceUrl ? { serviceUrl } : {}),
        ...(upload ? { uploadedSourceMaps: true } : {}),
      };
      forbidden = knownSecrets(env);
      base = resolved.base;
      sourcePaths = projectRelativeSources(
        resolved.root,
        resolve(resolved.root, resolved.build.outDir),
      );
      config = { ...client, sourceMaps: sourceMaps === true };
    },
    outputOptions(output) {
      // Public maps are read by the browser against their URL; uploaded ones keep their sources
      // relative to the map file on disk, which the upload makes project-relative.
      if (options.sourceMaps !== true || output.sourcemapPathTransform || !sourcePaths) return;
      // A server build's maps are read from disk (relative to the map, as Vite writes them).
      if (this.environment?.config.consumer === 'server') return;
      return { ...output, sourcemapPathTransform: sourcePaths };
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      return (
        `export const config = ${JSON.stringify(config)};\n` +
        `export const settings = ${JSON.stringify(settings)};\n` +
        'export default config;\n'
      );
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (options.sourceMaps !== true || !ctx.bundle) return;
        const maps = chunkMaps(ctx.bundle as never);
        if (Object.keys(maps).length === 0) return;
        return [{ tag: 'script', children: registryScript(maps, base), injectTo: 'head-prepend' }];
      },
    },
    generateBundle: {
      order: 'post',
      handler(_out, bundle) {
        if (this.environment?.config.consumer === 'server') return;
        const leak = findBundleLeak(bundle as never, forbidden, publishablePrefix(), framework);
        if (leak) this.error(leak);
      },
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (!upload || this.environment?.config.consumer === 'server') return;
        await upload.run((line) => this.environment?.logger.info(line) ?? console.log(line));
      },
    },
  };
}
