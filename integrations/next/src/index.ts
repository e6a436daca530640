export { isControlFlowError } from './shared/control-flow.ts';
export {
  createRequestErrorHandler,
  type RequestErrorHandler,
  type RequestErrorHandlerOptions,
} from './server/capture.ts';
export { type FlushDeps, type FlushMode, scheduleFlush } from './server/flush.ts';
export { captureRequestError, createOnRequestError } from './server/next-hooks.ts';
export { registerSvc, type SvcNextServerOptions } from './server/register.ts';
export {
  buildRequestErrorTitle,
  normaliseRoutePath,
  requestErrorPlace,
  requestErrorReport,
} from './server/title.ts';
