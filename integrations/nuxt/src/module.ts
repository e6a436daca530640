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

    // The user's own runtimeConfig wins over module options (defu keeps the first argument).
    nuxt.options.runtimeConfig = defu(
      nuxt.options.runtimeConfig,
      toRuntimeConfig(options, process.env),
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
