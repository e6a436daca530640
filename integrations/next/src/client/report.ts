// Browser-side reporting shared by the window handlers and the error boundaries. Each error object
// is reported once, whichever of them sees it first (React may surface one error to several).

import { getShared, type SvcClient } from '@svc/runtime';
import { carrierSlot, type FailureReport, failureReport } from '@svc/runtime/kit';
import { isControlFlowError, readDigest } from '../shared/control-flow.ts';
import type { ReportingMethodName } from '../shared/types.ts';

/** Where a browser error was caught. */
export type ClientErrorSource = 'boundary' | 'window' | 'unhandledrejection';

/** The failure kind of every integration each source is. */
const KINDS = {
  boundary: 'error-boundary',
  window: 'browser-error',
  unhandledrejection: 'browser-rejection',
} as const;

export interface ClientState {
  /** Report errors that carry a server digest (already reported by the server). */
  reportServerErrors: boolean;
  /** Reporting method for browser errors; unset: the failure table's. */
  method?: ReportingMethodName;
  reported: WeakSet<object>;
  /** Whether the window handlers are installed. */
  windowHandlers: boolean;
}

/** Settings shared by every copy of this package on the page (the global carrier's slot). */
export function clientState(): ClientState {
  return carrierSlot<ClientState>('nextClient', () => ({
    reportServerErrors: false,
    reported: new WeakSet(),
    windowHandlers: false,
  }));
}

/**
 * The method, title and tags of a browser error: the failure of every integration its source is
 * (`browser-error`, `browser-rejection`, `error-boundary`), e.g. `TypeError: Cannot read
 * properties of undefined (reading <value>) (browser)`, tags `next`, `browser`, `browser-error`.
 * There is no route pattern in the browser, and the concrete URL varies per event.
 */
export function clientErrorReport(error: unknown, source: ClientErrorSource): FailureReport {
  return failureReport(KINDS[source], 'next', error, { ui: 'React' });
}

/**
 * Reports a browser error unless it is a Next control-flow error, was already reported, or is a
 * server error seen by a boundary (it carries a `digest`, and the server report, whose
 * description names the same digest, has the full stack). Never throws. Returns whether a report
 * was queued.
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
    const { method, title, tags } = clientErrorReport(error, source);
    client[state.method ?? method](title, error, tags);
    return true;
  } catch {
    return false;
  }
}
