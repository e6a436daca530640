// instrumentation-client.ts entry: the browser client (publishable key only) and window handlers.

import { initShared, type SvcClient, type SvcOptions } from '@svc/runtime';
import type { ReportingMethodName } from '../shared/types.ts';
import { uploadedSourceMaps } from '../shared/source-maps.ts';
import { clientState } from './report.ts';
import { installWindowHandlers } from './window.ts';

/** Options of {@link registerSvcClient}: the runtime's options plus the Next-specific ones. */
export interface SvcNextClientOptions extends SvcOptions {
  /**
   * Address of your Svc service (a deployment setting, not a contract 8.5 option). Pass the literal
   * `process.env.NEXT_PUBLIC_SERVICE_URL` (`withSvc` fills it from `SERVICE_URL` at build time).
   * @default the runtime's default address
   */
  serviceUrl?: string;
  /**
   * Also report, from error boundaries, server errors that reach the browser (they carry a
   * `digest` and only a redacted message; the server already reported them).
   * @default false
   */
  reportServerErrors?: boolean;
  /**
   * Install `window` `error` and `unhandledrejection` listeners.
   * @default true
   */
  windowHandlers?: boolean;
  /**
   * Reporting method (severity and priority) for browser errors.
   * @default the failure table's (`majorMedium` for `browser-error`, `browser-rejection` and
   *   `error-boundary`)
   */
  method?: ReportingMethodName;
}

/**
 * Creates (once) the shared browser client and installs the window handlers. Pass the key as a
 * literal `process.env.NEXT_PUBLIC_SERVICE_API_KEY` expression in your own file: Next only inlines
 * literal references. Server-only credentials (`keyId`, `signingSecret`) are refused here.
 * Never throws.
 */
export function registerSvcClient(options: SvcNextClientOptions = {}): SvcClient | undefined {
  try {
    const {
      reportServerErrors,
      windowHandlers,
      method,
      keyId,
      signingSecret,
      serviceUrl,
      ...rest
    } = options;
    if (keyId !== undefined || signingSecret !== undefined) {
      console.warn('[svc/next] keyId/signingSecret are server-only; ignored in the browser');
    }
    const state = clientState();
    if (reportServerErrors !== undefined) state.reportServerErrors = reportServerErrors;
    if (method !== undefined) state.method = method;
    const client = initShared(rest, {
      serviceUrl: serviceUrl || undefined,
      uploadedSourceMaps: uploadedSourceMaps(),
    });
    if (windowHandlers !== false) installWindowHandlers();
    return client;
  } catch (error) {
    console.warn('[svc/next] could not start the browser client:', (error as Error)?.message);
    return undefined;
  }
}
