// Global browser handlers: errors thrown outside React rendering (event handlers, timers) and
// unhandled promise rejections.

import { type ClientErrorSource, clientState, reportClientError } from './report.ts';

interface ErrorTarget {
  addEventListener(type: string, listener: (event: any) => void): void;
}

/** Installs the `error` and `unhandledrejection` listeners once per page. */
export function installWindowHandlers(
  target: ErrorTarget | undefined = typeof window !== 'undefined' ? window : undefined,
  report: (error: unknown, source: ClientErrorSource) => unknown = reportClientError,
): boolean {
  const state = clientState();
  if (!target || state.windowHandlers) return false;
  state.windowHandlers = true;
  target.addEventListener('error', (event: ErrorEvent) => {
    // A cross-origin script error has no error object and only "Script error.": nothing to act on.
    if (event?.error != null) report(event.error, 'window');
  });
  target.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    report(event?.reason, 'unhandledrejection');
  });
  return true;
}
