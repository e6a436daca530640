import type { SvcClient } from '@svc/runtime';
import { errorTitle, PLACES, type ReportingMethodName } from '@svc/runtime/kit';

type Method = ReportingMethodName;

export interface GlobalHandlerOptions {
  /** Reporting method for uncaught errors and unhandled rejections. @default 'critical' */
  method?: Method;
  /** The window to listen on (tests). @default globalThis */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
}

/**
 * Reports window `error` and `unhandledrejection` events; the browser's own handling (console
 * output) is left untouched. Returns an uninstaller.
 */
export function installGlobalHandlers(
  client: SvcClient,
  options: GlobalHandlerOptions = {},
): () => void {
  const target = options.target ?? (globalThis as unknown as Window);
  const method = options.method ?? 'critical';
  const send = (title: string, description: unknown, tag: string) => {
    try {
      client[method](title, description, ['browser', tag]);
    } catch {
      // never throw into the page
    }
  };
  const onError = (event: ErrorEvent) => {
    const value = event.error ?? event.message;
    if (!value) return; // resource load errors and cross-origin "Script error." carry nothing
    send(errorTitle(value, PLACES.browser), value, 'window-error');
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    send(errorTitle(event.reason, PLACES.browserRejection), event.reason, 'unhandled-rejection');
  };
  target.addEventListener('error', onError as EventListener);
  target.addEventListener('unhandledrejection', onRejection as EventListener);
  return () => {
    target.removeEventListener('error', onError as EventListener);
    target.removeEventListener('unhandledrejection', onRejection as EventListener);
  };
}
