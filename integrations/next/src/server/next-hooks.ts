// Server entry wiring: Next's `after()` is passed in here so the rest stays testable without Next.
import { after } from 'next/server.js';
import { createRequestErrorHandler, type RequestErrorHandlerOptions } from './capture.ts';

/** `createRequestErrorHandler` with Next's `after()` as the flush fallback. */
export function createOnRequestError(options: RequestErrorHandlerOptions = {}) {
  return createRequestErrorHandler({ ...options, flush: { after, ...options.flush } });
}

/** Ready-made `onRequestError` for instrumentation.ts: `export const onRequestError = captureRequestError`. */
export const captureRequestError = createOnRequestError();
