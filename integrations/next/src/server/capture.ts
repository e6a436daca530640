// `onRequestError` half of instrumentation.ts: one report per real server error (none for Next's
// control-flow errors, one when Next calls twice for one request), flushed so serverless
// platforms do not lose it. (The runtime's Node client runs every call outside the request's async
// context, where Next's prerenders would count its clock reads and random values as the page's.)

import type { SvcClient } from '@svc/runtime';
import { noteRequestReport, reportedAsCrash } from '@svc/runtime/kit';
import type { ReportingMethodName } from '../shared/types.ts';
import { isControlFlowError } from '../shared/control-flow.ts';
import { type FlushDeps, type FlushMode, scheduleFlush } from './flush.ts';
import { errorKey, firstInRequest } from './once.ts';
import { flushesBeforeResponse, registerSvc, serverState } from './register.ts';
import { type RequestErrorContextInfo, type RequestInfo, requestErrorReport } from './title.ts';

const FLUSH_NOTES: Record<FlushMode, string> = {
  waitUntil: "handed to the platform's waitUntil",
  after: 'scheduled with after()',
  awaited: 'awaited with a deadline',
  background: 'left to the background queue',
};

export interface RequestErrorHandlerOptions {
  /**
   * Reporting method (severity and priority) used for server errors.
   * @default 'majorMedium' (the `server-error` row of the integrations' failure table)
   */
  method?: ReportingMethodName;
  /** Returns the client to report with. @default the shared client, created by `registerSvc()` */
  getClient?: () => SvcClient | undefined;
  /** Flush seams (`after`, `waitUntil`); wired to Next's by the package entry. */
  flush?: FlushDeps;
}

export type RequestErrorHandler = (
  error: unknown,
  request: Readonly<RequestInfo>,
  context: Readonly<RequestErrorContextInfo>,
) => Promise<void>;

/** Builds an `onRequestError` handler. The handler never throws. */
export function createRequestErrorHandler(
  options: RequestErrorHandlerOptions = {},
): RequestErrorHandler {
  const getClient = options.getClient ?? (() => registerSvc());
  return async (error, request, context) => {
    try {
      if (isControlFlowError(error)) return;
      // Rejected first and reported as a crash (see crashes.ts): not a second card. Else the crash
      // handlers leave it from now on (the same error rejecting a promise nobody awaits).
      if (reportedAsCrash(error)) return;
      noteRequestReport(error);
      const { method, title, tags } = requestErrorReport(error, request, context);
      if (!firstInRequest(request.headers, errorKey(title, error))) return;
      const client = getClient();
      if (!client) return;
      client[options.method ?? method](title, error, tags);
      const state = serverState();
      const log = state.debug ? (message: string) => console.debug(message) : undefined;
      const policy = {
        timeoutMs: state.flushTimeoutMs,
        beforeResponse: flushesBeforeResponse(),
        edge: process.env.NEXT_RUNTIME === 'edge',
      };
      const { mode, done } = scheduleFlush(client, policy, { log, ...options.flush });
      log?.(`[svc/next] reported "${title}"; flush ${FLUSH_NOTES[mode]}`);
      if (mode === 'awaited') await done;
    } catch {
      // The SDK never throws into the host.
    }
  };
}
