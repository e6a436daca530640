import { type SvcViteOptions, svcFor } from '@svc/vite';
import type { Plugin } from 'vite';

export type SvcSvelteKitPluginOptions = SvcViteOptions;

/**
 * The Vite plugin of `@svc/vite` for SvelteKit's browser: `virtual:svc/config` from the
 * `PUBLIC_SERVICE_*` variables (address, environment and release else from `SERVICE_*`, at build),
 * the build stopped when a server secret would ship to the browser, and with `sourceMaps` hidden
 * maps beside the chunks (the browser fetches `<chunk>.map`). Put it after `sveltekit()`.
 */
export function svc(options: SvcSvelteKitPluginOptions = {}): Plugin {
  return svcFor('sveltekit', options);
}
