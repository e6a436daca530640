export { setupErrorHandler } from './setup.ts';
export { errorHandler, errorStatus } from './error-handler.ts';
export { installProcessHandlers, type ProcessHandlerOptions } from './process-handlers.ts';
export { requestRoute, routeTitle } from './route-title.ts';
export {
  clientOptions,
  clientSettings,
  type ReportingMethodName,
  type SvcExpressOptions,
} from './options.ts';
