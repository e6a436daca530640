// `onRequestError` half of instrumentation.ts: one report per real server error, none for
// Next's control-flow errors, flushed so serverless platforms do not lose it.

import type { SvcClient } from '@svc/runtime';
import type { ReportingMethodName } from '../shared/types.ts';
import { isControlFlowError } from '../shared/control-flow.ts';
import { type FlushDeps, scheduleFlush } from './flush.ts';
import { registerSvc, serverState } from './register.ts';
import { type RequestErrorContextInfo, type RequestInfo, requestErrorReport } from './title.ts';

const FLUSH_NOTES = {
  waitUntil: "handed to the platform's waitUntil",
  after: 'scheduled with after()',
  awaited: 'awaited with a deadline',
} as const;

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
      const client = getClient();
      if (!client) return;
      const { method, title, tags } = requestErrorReport(error, request, context);
      client[options.method ?? method](title, error, tags);
      const state = serverState();
      const log = state.debug ? (message: string) => console.debug(message) : undefined;
      const { mode, done } = scheduleFlush(client, state.flushTimeoutMs, {
        log,
        ...options.flush,
      });
      log?.(`[svc/next] reported "${title}"; flush ${FLUSH_NOTES[mode]}`);
      if (mode === 'awaited') await done;
    } catch {
      // The SDK never throws into the host.
    }
  };
}
