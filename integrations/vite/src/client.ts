export { errorTitle } from '@svc/runtime/kit';
export { installGlobalHandlers, type GlobalHandlerOptions } from './global-handlers.ts';
