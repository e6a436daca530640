// The window listeners of every browser integration: uncaught errors (`error`) and unhandled
// promise rejections (`unhandledrejection`), as the failure kinds `browser-error` and
// `browser-rejection`. The browser's own handling (console output) is left untouched.
import type { SvcClient } from '../core/client.ts';
import type { SvcOptions } from '../core/options.ts';
import type { ClientSettings } from '../core/types.ts';
import type { FrameworkName } from '../generated/integrations.gen.ts';
import type { ReportingMethodName } from '../generated/methods.gen.ts';
import { failureReport } from './failures.ts';

/** The part of `window` the listeners use (injected in tests). */
export interface ErrorTarget {
  addEventListener(type: string, listener: (event: any) => void): void;
  removeEventListener(type: string, listener: (event: any) => void): void;
}

/** Calls `report` for each uncaught error and unhandled rejection on `target`; returns an uninstaller. */
export function listenWindowErrors(
  target: ErrorTarget,
  report: (error: unknown, kind: 'browser-error' | 'browser-rejection') => void,
): () => void {
  const send = (error: unknown, kind: 'browser-error' | 'browser-rejection') => {
    try {
      report(error, kind);
    } catch {
      // never throw into the page
    }
  };
  const onError = (event: { error?: unknown } | undefined) => {
    // Resource load errors and cross-origin "Script error." carry no error object: nothing to act on.
    if (event?.error != null) send(event.error, 'browser-error');
  };
  const onRejection = (event: { reason?: unknown } | undefined) => {
    send(event?.reason, 'browser-rejection');
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}

/**
 * Reports the window's uncaught errors and unhandled rejections with `client`, as `framework`'s
 * cards (`TypeError: ... (browser)`, tags `<framework>` `browser` `browser-error`). Returns an
 * uninstaller.
 */
export function reportWindowErrors(
  client: SvcClient,
  framework: FrameworkName,
  method?: ReportingMethodName,
  target: ErrorTarget = globalThis as unknown as ErrorTarget,
): () => void {
  return listenWindowErrors(target, (error, kind) => {
    const card = failureReport(kind, framework, error);
    client[method ?? card.method](card.title, error, card.tags);
  });
}

/** What a browser integration's `initSvcClient` takes beside the client's config and settings. */
export interface BrowserIntegrationOptions {
  /** @default the failure table's method ('majorMedium') */
  method?: ReportingMethodName;
  /** Listen to the window's `error` and `unhandledrejection` events. @default true */
  windowHandlers?: boolean;
}

/**
 * The page's client of a browser integration, made with `initShared` of the runtime entry the
 * integration bundles with (the config and settings its build gave it), and the window listeners
 * (`reportWindowErrors`) unless `windowHandlers` is false or there is no window.
 */
export function initBrowserIntegration(
  initShared: (config: SvcOptions, settings?: ClientSettings) => SvcClient,
  framework: FrameworkName,
  config: SvcOptions,
  settings: ClientSettings = {},
  options: BrowserIntegrationOptions = {},
): SvcClient {
  const client = initShared(config, settings);
  if (
    options.windowHandlers !== false &&
    typeof (globalThis as Partial<ErrorTarget>).addEventListener === 'function'
  )
    reportWindowErrors(client, framework, options.method);
  return client;
}
