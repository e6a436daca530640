// React Router's browser (framework mode, `app/entry.client.tsx`): `initSvcClient(config,
// settings)` makes the page's client with the window listeners every Svc browser integration
// installs; `onRouterError` is `<HydratedRouter onError>`: what a route's `ErrorBoundary` caught
// (client loaders and actions, rendering) becomes the `error-boundary` card.
import {
  type ClientSettings,
  getShared,
  initShared,
  type SvcClient,
  type SvcOptions,
} from '@svc/runtime';
import {
  type BrowserIntegrationOptions,
  failureReport,
  initBrowserIntegration,
} from '@svc/runtime/kit';

/** `initSvcClient`'s options: `method` (the failure table's), `windowHandlers` (true). */
export type SvcReactRouterClientOptions = BrowserIntegrationOptions;

/**
 * The page's client (`config` and `settings` of `virtual:svc/config`), with the window listeners:
 * uncaught errors and unhandled rejections become cards. Call it once, before hydrating.
 */
export function initSvcClient(
  config: SvcOptions,
  settings: ClientSettings = {},
  options: SvcReactRouterClientOptions = {},
): SvcClient {
  return initBrowserIntegration(initShared, 'react-router', config, settings, options);
}

/** React Router's message for a server error it sent to the browser (the server reported it). */
const SANITIZED = 'Unexpected Server Error';

/**
 * `<HydratedRouter onError={onRouterError} />`: reports what a route's error boundary caught. A
 * route error response below 500 (a 404 while navigating) and a server error React Router passed
 * on to the browser (already reported by the server) make no card.
 */
export function onRouterError(error: unknown): void {
  try {
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === 'number' && status < 500) return;
    if ((error as { message?: unknown } | null)?.message === SANITIZED) return;
    const card = failureReport('error-boundary', 'react-router', error, { ui: 'React' });
    getShared()?.[card.method](card.title, error, card.tags);
  } catch {
    // never throw into the page
  }
}
