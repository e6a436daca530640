// SvelteKit's browser: `initSvcClient(config, settings)` in the client `init` hook (the page's one
// client, and the window listeners every Svc browser integration installs), `handleErrorWithSvc()`
// as the client `handleError` hook (an error while loading or rendering a page, shown by your
// `+error.svelte`), `reportBoundaryError` for `<svelte:boundary onerror>`.
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
  type ReportingMethodName,
} from '@svc/runtime/kit';
import { answeredStatus } from './status.ts';

/** `initSvcClient`'s options: `method` (the failure table's), `windowHandlers` (true). */
export type SvcSvelteKitClientOptions = BrowserIntegrationOptions;

/** Reports `error` caught by a boundary (SvelteKit's error page, `<svelte:boundary>`); never throws. */
function reportCaught(error: unknown, method?: ReportingMethodName): void {
  try {
    const card = failureReport('error-boundary', 'sveltekit', error, { ui: 'Svelte' });
    getShared()?.[method ?? card.method](card.title, error, card.tags);
  } catch {
    // never throw into the page
  }
}

/**
 * The page's client (`config` and `settings` of `virtual:svc/config`), with the window listeners:
 * uncaught errors and unhandled rejections become cards. Call it from the client `init` hook.
 */
export function initSvcClient(
  config: SvcOptions,
  settings: ClientSettings = {},
  options: SvcSvelteKitClientOptions = {},
): SvcClient {
  return initBrowserIntegration(initShared, 'sveltekit', config, settings, options);
}

/** What SvelteKit hands `handleError` in the browser (2: `status`; 3: `kind`, as on the server). */
export interface ClientErrorInput {
  error: unknown;
  status?: number;
  kind?: string;
  message?: string;
}

/**
 * SvelteKit 3 hands a boundary the error `handleError` made of the thrown one (a plain `App.Error`
 * object, `{ message: 'Internal Error' }`): the thrown one was reported there.
 */
function isAppError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    Object.getPrototypeOf(error) === Object.prototype &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/**
 * SvelteKit's client `handleError` hook: an unexpected error while loading or rendering a page
 * (`Error: ... (Svelte component)`, tags `sveltekit` `browser` `error-boundary`), then your
 * `handler`. A 404 (no route) makes no card.
 */
export function handleErrorWithSvc<R = void>(
  handler?: (input: ClientErrorInput) => R | Promise<R>,
  options: SvcSvelteKitClientOptions = {},
): (input: ClientErrorInput) => Promise<R | undefined> {
  return async function handleError(input) {
    if (answeredStatus(input) >= 500) reportCaught(input.error, options.method);
    return handler ? await handler(input) : undefined;
  };
}

/** For `<svelte:boundary onerror={reportBoundaryError}>`: reports what the boundary caught. */
export function reportBoundaryError(error: unknown): void {
  if (!isAppError(error)) reportCaught(error);
}
