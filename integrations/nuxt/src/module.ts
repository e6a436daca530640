import {
  addPlugin,
  addServerPlugin,
  addVitePlugin,
  createResolver,
  defineNuxtModule,
} from '@nuxt/kit';
import { defu } from 'defu';
import {
  defaults,
  type ModuleOptions,
  type PrivateSettingKeys,
  type PublicSettingKeys,
  toRuntimeConfig,
} from './runtime-config';
import { readBrowserSettings } from '@svc/runtime/kit';
import { releaseOfBuild } from '@svc/runtime/sourcemaps';
import { afterServerBuild, type BuildUpload } from './build-maps';
import { sourceMapRegistry } from './sourcemaps';

export type { ModuleOptions } from './runtime-config';

export default defineNuxtModule<ModuleOptions>({
  meta: {
    name: '@svc/nuxt',
    configKey: 'svc',
    compatibility: { nuxt: '>=4.0.0' },
  },
  defaults,
  setup(options, nuxt) {
    const resolver = createResolver(import.meta.url);
    const upload =
      options.sourceMaps === 'upload' && !nuxt.options.dev ? buildUpload(options) : undefined;

    // The user's own runtimeConfig wins over module options (defu keeps the first argument).
    nuxt.options.runtimeConfig = defu(
      nuxt.options.runtimeConfig,
      toRuntimeConfig(upload ? { ...options, release: upload.release } : options, process.env),
    ) as typeof nuxt.options.runtimeConfig;

    addPlugin(resolver.resolve('./runtime/plugin.client'));
    addPlugin(resolver.resolve('./runtime/plugin.server'));
    addServerPlugin(resolver.resolve('./runtime/server/plugin'));

    if (options.sourceMaps) {
      // Keep a user's explicit `true` (referenced maps); otherwise emit maps without a reference.
      const current = nuxt.options.sourcemap;
      if (typeof current === 'object' && current.client !== true) current.client = 'hidden';
    }
    if (options.sourceMaps === true)
      addVitePlugin(sourceMapRegistry(), { server: false, dev: false });
    if (upload) nuxt.hook('vite:extendConfig', withDebugIds);
    if (!nuxt.options.dev)
      nuxt.hook('nitro:init', (nitro) => {
        nitro.hooks.hook('compiled', () =>
          afterServerBuild(
            {
              rootDir: nuxt.options.rootDir,
              buildDir: nuxt.options.buildDir,
              serverDir: nitro.options.output.serverDir,
              publicDir: nitro.options.output.publicDir,
              publicUrl: nuxt.options.app.cdnURL || nuxt.options.app.baseURL,
            },
            upload,
          ),
        );
      });
  },
});

/**
 * The build's release (the option, else `NUXT_PUBLIC_SERVICE_RELEASE` or `SERVICE_RELEASE`, else
 * one made for this build: it becomes the release of both sides' reports) and where to upload.
 */
function buildUpload(options: ModuleOptions): BuildUpload {
  const env = process.env;
  const settings = readBrowserSettings(env, 'nuxt');
  const serviceUrl = options.serviceUrl ?? settings.serviceUrl;
  return {
    release: releaseOfBuild(options.release ?? settings.release).release,
    env,
    ...(serviceUrl ? { serviceUrl } : {}),
  };
}

/** Rollup's debug IDs in the client build (`//# debugId=` in each chunk, `debugId` in its map). */
function withDebugIds(config: { build?: Record<string, any> }, env: { isClient: boolean }): void {
  if (!env.isClient) return;
  config.build ??= {};
  config.build.rollupOptions ??= {};
  config.build.rollupOptions.output ??= {};
  const output = config.build.rollupOptions.output;
  for (const each of Array.isArray(output) ? output : [output]) each.sourcemapDebugIds = true;
}

// Runtime config keys derived from the spec's variable names (`SERVICE_KEY_ID` -> `serviceKeyId`,
// set at run time by `NUXT_SERVICE_KEY_ID`; `NUXT_PUBLIC_SERVICE_API_KEY` -> `public.serviceApiKey`).
declare module '@nuxt/schema' {
  interface RuntimeConfig extends PrivateSettingKeys {
    svc: { shutdownTimeoutMs: number };
  }
  interface PublicRuntimeConfig extends PublicSettingKeys {
    /** Every other client option (`NUXT_PUBLIC_SVC_SAMPLE_RATE`); empty when unset. */
    svc: Record<string, unknown>;
  }
}
