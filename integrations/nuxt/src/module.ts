import {
  addPlugin,
  addServerPlugin,
  addVitePlugin,
  createResolver,
  defineNuxtModule,
} from '@nuxt/kit';
import { defu } from 'defu';
import { defaults, type ModuleOptions, type PublicSvcConfig, toRuntimeConfig } from './options';
import { sourceMapRegistry } from './sourcemaps';

export type { ModuleOptions, PublicSvcConfig } from './options';

export default defineNuxtModule<ModuleOptions>({
  meta: {
    name: '@svc/nuxt',
    configKey: 'svc',
    compatibility: { nuxt: '>=4.0.0' },
  },
  defaults,
  setup(options, nuxt) {
    const resolver = createResolver(import.meta.url);

    // The user's own runtimeConfig wins over module options (defu keeps the first argument).
    nuxt.options.runtimeConfig = defu(
      nuxt.options.runtimeConfig,
      toRuntimeConfig(options),
    ) as typeof nuxt.options.runtimeConfig;

    addPlugin(resolver.resolve('./runtime/plugin.client'));
    addPlugin(resolver.resolve('./runtime/plugin.server'));
    addServerPlugin(resolver.resolve('./runtime/server/plugin'));

    if (options.sourceMaps) {
      // Keep a user's explicit `true` (referenced maps); otherwise emit maps without a reference.
      const current = nuxt.options.sourcemap;
      if (typeof current === 'object' && current.client !== true) current.client = 'hidden';
      addVitePlugin(sourceMapRegistry(), { server: false, dev: false });
    }
  },
});

declare module '@nuxt/schema' {
  interface RuntimeConfig {
    /** Secret key id for the Nitro server; `NUXT_SERVICE_KEY_ID`. */
    serviceKeyId: string;
    /** Signing secret for the Nitro server; `NUXT_SERVICE_SIGNING_SECRET`. */
    serviceSigningSecret: string;
    svc: { shutdownTimeoutMs: number };
  }
  interface PublicRuntimeConfig {
    /** Address of the Svc service; `NUXT_PUBLIC_SERVICE_URL`. */
    serviceUrl: string;
    /** Publishable key for the browser; `NUXT_PUBLIC_SERVICE_API_KEY`. */
    serviceApiKey: string;
    svc: PublicSvcConfig;
  }
}
