import { resolve } from 'node:path';
import {
  findSecretsInCode,
  firstSet,
  type KnownSecret,
  keyShapes,
  knownSecrets,
  type PublicClientOptions,
  type PublicFramework,
  publicVariable,
  readBrowserSettings,
} from '@svc/runtime/kit';
import { loadEnv, type Plugin, type Rollup } from 'vite';

type OutputChunk = Rollup.OutputChunk;
type OutputAsset = Rollup.OutputAsset;
import { projectRelativeSources } from './source-paths.ts';
import { chunkMaps, registryScript } from './sourcemaps.ts';

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
  /** Emit hidden source maps, register them, and let the client resolve through them. @default false */
  sourceMaps?: boolean;
}

export const VIRTUAL_ID = 'virtual:svc/config';

/** `svc_pub_`: the publishable key's prefix (contract 2.5, from the spec). */
const publishablePrefix = () =>
  keyShapes().find((shape) => shape.name === 'publishableKey')?.prefix ?? '';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

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
  return {
    name: 'svc',
    config(user) {
      if (!options.sourceMaps || user.build?.sourcemap) return;
      return { build: { sourcemap: 'hidden' } };
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
      if (client.apiKey && !client.apiKey.startsWith(publishablePrefix())) {
        throw new Error(
          `[svc] ${publicVariable(framework, 'apiKey')} must be a publishable key (${publishablePrefix()}...). ` +
            'Secret keys sign requests on a server and must never reach the browser.',
        );
      }
      if (serviceUrl && !/^https?:\/\/[^/?#\s]+[^?#\s]*$/i.test(serviceUrl.trim())) {
        resolved.logger.warn(
          `[svc] ${publicVariable(framework, 'serviceUrl')} ${JSON.stringify(serviceUrl)} is not an ` +
            'absolute http(s) URL: the browser client will stay disabled. Example: ' +
            `${publicVariable(framework, 'serviceUrl')}=https://svc.example.com`,
        );
      }
      settings = serviceUrl ? { serviceUrl } : {};
      forbidden = knownSecrets(env);
      base = resolved.base;
      sourcePaths = projectRelativeSources(
        resolved.root,
        resolve(resolved.root, resolved.build.outDir),
      );
      config = { ...client, sourceMaps };
    },
    outputOptions(output) {
      if (!options.sourceMaps || output.sourcemapPathTransform || !sourcePaths) return;
      // A server build's maps are read from disk (relative to the map, as Vite writes them); the
      // rewrite is for maps the browser fetches beside the served chunks.
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
        if (!options.sourceMaps || !ctx.bundle) return;
        const maps = chunkMaps(ctx.bundle as never);
        if (Object.keys(maps).length === 0) return;
        return [{ tag: 'script', children: registryScript(maps, base), injectTo: 'head-prepend' }];
      },
    },
    generateBundle: {
      order: 'post',
      handler(_out, bundle) {
        if (this.environment?.config.consumer === 'server') return;
        for (const [fileName, leaks] of bundleLeaks(bundle, forbidden)) {
          this.error(
            `[svc] Build stopped: ${leaks.join(' and ')} would be shipped in the client file ` +
              `${fileName}. Secret keys belong on the server; browser code uses a ` +
              `publishable key (${publicVariable(framework, 'apiKey')}=${publishablePrefix()}...).`,
          );
        }
      },
    },
  };
}

/** The client files of a bundle that hold a secret, with what they hold (maps' sources included). */
function bundleLeaks(
  bundle: Record<string, OutputChunk | OutputAsset>,
  forbidden: KnownSecret[],
): [string, string[]][] {
  const found: [string, string[]][] = [];
  for (const item of Object.values(bundle)) {
    const files: [string, string][] = [];
    if (item.type === 'chunk') {
      files.push([item.fileName, item.code]);
      // Deployed maps carry the original sources, dead code included.
      const sources = item.map?.sourcesContent?.join('\n');
      if (sources) files.push([`${item.fileName}.map`, sources]);
    } else if (/\.(html|js|mjs|css)$/.test(item.fileName) && typeof item.source === 'string') {
      files.push([item.fileName, item.source]);
    }
    for (const [fileName, text] of files) {
      const leaks = findSecretsInCode(text, forbidden);
      if (leaks.length > 0) found.push([fileName, leaks]);
    }
  }
  return found;
}
