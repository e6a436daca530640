import { resolve } from 'node:path';
import { findSecretsInCode, type KnownSecret, knownSecrets } from '@svc/runtime/kit';
import { loadEnv, type Plugin } from 'vite';
import { resolveRelease, gitRelease } from './release.ts';
import { projectRelativeSources } from './source-paths.ts';
import { chunkMaps, registryScript } from './sourcemaps.ts';

/** Options of the `svc()` Vite plugin. */
export interface SvcViteOptions {
  /** Publishable key (`svc_pub_...`). @default env `VITE_SERVICE_API_KEY` */
  apiKey?: string;
  /**
   * Address of your Svc service (`https://svc.example.com`), exported as `settings.serviceUrl`.
   * @default env `VITE_SERVICE_URL`, else the runtime's default address
   */
  serviceUrl?: string;
  /** Added as tag `release:<value>`. @default env `SERVICE_RELEASE`, then `git rev-parse --short HEAD` */
  release?: string;
  /** Added as tag `env:<value>`. @default the Vite mode (`production`, `development`, ...) */
  environment?: string;
  /** Emit hidden source maps, register them, and let the client resolve through them. @default false */
  sourceMaps?: boolean;
}

export const VIRTUAL_ID = 'virtual:svc/config';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

/**
 * The Vite plugin: serves `virtual:svc/config` (`config`, the client options, and `settings`, the
 * service address: `initShared(config, settings)`), fails the build when a
 * server secret would ship to the browser, and turns on hidden source maps when `sourceMaps`.
 */
export function svc(options: SvcViteOptions = {}): Plugin {
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
      const apiKey = options.apiKey ?? env.VITE_SERVICE_API_KEY;
      if (apiKey && !apiKey.startsWith('svc_pub_')) {
        throw new Error(
          '[svc] VITE_SERVICE_API_KEY must be a publishable key (svc_pub_...). Secret keys ' +
            '(svck_ / svc_sec_) sign requests on a server and must never reach the browser.',
        );
      }
      const serviceUrl = options.serviceUrl || env.VITE_SERVICE_URL || undefined;
      if (serviceUrl && !/^https?:\/\/[^/?#\s]+[^?#\s]*$/i.test(serviceUrl.trim())) {
        resolved.logger.warn(
          `[svc] VITE_SERVICE_URL ${JSON.stringify(serviceUrl)} is not an absolute http(s) URL: ` +
            'the browser client will stay disabled. Example: VITE_SERVICE_URL=https://svc.example.com',
        );
      }
      settings = serviceUrl ? { serviceUrl } : {};
      forbidden = knownSecrets(env);
      base = resolved.base;
      sourcePaths = projectRelativeSources(
        resolved.root,
        resolve(resolved.root, resolved.build.outDir),
      );
      const release = resolveRelease(options.release, env, () => gitRelease(resolved.root));
      config = {
        apiKey,
        environment: options.environment ?? resolved.mode,
        release,
        sourceMaps: options.sourceMaps ?? false,
      };
      for (const key of Object.keys(config)) if (config[key] === undefined) delete config[key];
    },
    outputOptions(output) {
      if (!options.sourceMaps || output.sourcemapPathTransform || !sourcePaths) return;
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
        for (const item of Object.values(bundle)) {
          const files: [string, string][] = [];
          if (item.type === 'chunk') {
            files.push([item.fileName, item.code]);
            // Deployed maps carry the original sources, dead code included.
            const sources = item.map?.sourcesContent?.join('\n');
            if (sources) files.push([`${item.fileName}.map`, sources]);
          } else if (
            /\.(html|js|mjs|css)$/.test(item.fileName) &&
            typeof item.source === 'string'
          ) {
            files.push([item.fileName, item.source]);
          }
          for (const [fileName, text] of files) {
            const leaks = findSecretsInCode(text, forbidden);
            if (leaks.length === 0) continue;
            this.error(
              `[svc] Build stopped: ${leaks.join(' and ')} would be shipped in the client file ` +
                `${fileName}. Secret keys belong on the server; browser code uses a ` +
                'publishable key (VITE_SERVICE_API_KEY=svc_pub_...).',
            );
          }
        }
      },
    },
  };
}
