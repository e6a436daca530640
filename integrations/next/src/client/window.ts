// Global browser handlers: errors thrown outside React rendering (event handlers, timers) and
// unhandled promise rejections.

import { type ErrorTarget, listenWindowErrors } from '@svc/runtime/kit';
import { type ClientErrorSource, clientState, reportClientError } from './report.ts';

/** Installs the `error` and `unhandledrejection` listeners (the kit's) once per page. */
export function installWindowHandlers(
  target: ErrorTarget | undefined = typeof window !== 'undefined' ? window : undefined,
  report: (error: unknown, source: ClientErrorSource) => unknown = reportClientError,
): boolean {
  const state = clientState();
  if (!target || state.windowHandlers) return false;
  state.windowHandlers = true;
  listenWindowErrors(target, (error, kind) =>
    report(error, kind === 'browser-error' ? 'window' : 'unhandledrejection'),
  );
  return true;
}
