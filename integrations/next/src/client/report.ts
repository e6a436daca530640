// Browser-side reporting shared by the window handlers and the error boundaries. Each error object
// is reported once, whichever of them sees it first (React may surface one error to several).

import { getShared, type SvcClient } from '@svc/runtime';
import { browserPlace, carrierSlot, errorTitle } from '@svc/runtime/kit';
import { isControlFlowError, readDigest } from '../shared/control-flow.ts';
import type { ReportingMethodName } from '../shared/types.ts';

/** Where a browser error was caught; becomes the `source:` tag. */
export type ClientErrorSource = 'boundary' | 'window' | 'unhandledrejection';

export interface ClientState {
  /** Report errors that carry a server digest (already reported by the server). */
  reportServerErrors: boolean;
  /** Reporting method for browser errors. */
  method: ReportingMethodName;
  reported: WeakSet<object>;
  /** Whether the window handlers are installed. */
  windowHandlers: boolean;
}

/** Settings shared by every copy of this package on the page (the global carrier's slot). */
export function clientState(): ClientState {
  return carrierSlot<ClientState>('nextClient', () => ({
    reportServerErrors: false,
    method: 'major',
    reported: new WeakSet(),
    windowHandlers: false,
  }));
}

/**
 * `TypeError: Cannot read properties of undefined (reading <value>) (browser)`: the one title
 * format of the kit. There is no route pattern in the browser, and the concrete URL varies per
 * event, so neither is in the title.
 */
export function buildClientErrorTitle(error: unknown): string {
  return errorTitle(error, browserPlace());
}

/** Where the error was caught, never a per-event value (a server digest is in the description). */
export function buildClientErrorTags(source: ClientErrorSource): string[] {
  return ['next', 'runtime:browser', `source:${source}`];
}

/**
 * Reports a browser error unless it is a Next control-flow error, was already reported, or is a
 * server error seen by a boundary (it carries a `digest`, and the server report, whose
 * description names the same digest, has the full stack). Never throws. Returns whether a report was queued.
 */
export function reportClientError(
  error: unknown,
  source: ClientErrorSource,
  client: SvcClient | undefined = getShared(),
): boolean {
  try {
    if (!client || error == null || isControlFlowError(error)) return false;
    const state = clientState();
    if (readDigest(error) && !state.reportServerErrors) return false;
    if (typeof error === 'object') {
      if (state.reported.has(error)) return false;
      state.reported.add(error);
    }
    client[state.method](buildClientErrorTitle(error), error, buildClientErrorTags(source));
    return true;
  } catch {
    return false;
  }
}
