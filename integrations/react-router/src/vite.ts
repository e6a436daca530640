import { type SvcViteOptions, svcFor } from '@svc/vite';
import type { Plugin } from 'vite';

export type SvcReactRouterPluginOptions = SvcViteOptions;

/**
 * The Vite plugin of `@svc/vite` for React Router's browser: `virtual:svc/config` from the
 * `VITE_SERVICE_*` variables (address, environment and release else from `SERVICE_*`, at build),
 * the build stopped when a server secret would ship to the browser, and with `sourceMaps` hidden
 * maps beside the chunks (the browser fetches `<chunk>.map`). Put it after `reactRouter()`.
 */
export function svc(options: SvcReactRouterPluginOptions = {}): Plugin {
  return svcFor('react-router', options);
}
