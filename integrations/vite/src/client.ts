export { errorTitle, installGlobalHandlers, type GlobalHandlerOptions } from './global-handlers.ts';
