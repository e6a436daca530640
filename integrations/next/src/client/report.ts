// Browser-side reporting shared by the window handlers and the error boundaries. Each error object
// is reported once, whichever of them sees it first (React may surface one error to several).

import { getShared, type SvcClient } from '@svc/runtime';
import { errorName, isControlFlowError, readDigest } from '../shared/control-flow.ts';
import type { ReportingMethodName } from '../shared/types.ts';

/** Where a browser error was caught; becomes the `source:` tag. */
export type ClientErrorSource = 'boundary' | 'window' | 'unhandledrejection';

const STATE = Symbol.for('svc.next.client');

export interface ClientState {
  /** Report errors that carry a server digest (already reported by the server). */
  reportServerErrors: boolean;
  /** Reporting method for browser errors. */
  method: ReportingMethodName;
  reported: WeakSet<object>;
  /** Whether the window handlers are installed. */
  windowHandlers: boolean;
}

/** Settings shared by every copy of this package on the page. */
export function clientState(): ClientState {
  const g = globalThis as Record<symbol, ClientState | undefined>;
  g[STATE] ??= {
    reportServerErrors: false,
    method: 'major',
    reported: new WeakSet(),
    windowHandlers: false,
  };
  return g[STATE];
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.trim().slice(0, 160);
}

/**
 * `TypeError: Cannot read properties of undefined (reading 'x')`: the class and the first line of
 * the message. There is no route pattern in the browser, and the concrete URL varies per event, so
 * it goes into a tag instead.
 */
export function buildClientErrorTitle(error: unknown): string {
  if (typeof error === 'string') return `Error: ${firstLine(error)}`;
  const message =
    typeof error === 'object' && error !== null && typeof (error as Error).message === 'string'
      ? firstLine((error as Error).message)
      : '';
  return message ? `${errorName(error)}: ${message}` : `${errorName(error)} in the browser`;
}

export function buildClientErrorTags(error: unknown, source: ClientErrorSource): string[] {
  const tags = ['next', 'runtime:browser', `source:${source}`];
  const digest = readDigest(error);
  if (digest) tags.push(`digest:${digest}`);
  return tags;
}

/**
 * Reports a browser error unless it is a Next control-flow error, was already reported, or is a
 * server error seen by a boundary (it carries a `digest`, and the server report with the same
 * `digest:` tag has the full stack). Never throws. Returns whether a report was queued.
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
    client[state.method](buildClientErrorTitle(error), error, buildClientErrorTags(error, source));
    return true;
  } catch {
    return false;
  }
}
