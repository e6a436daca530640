export {
  handleErrorWithSvc,
  initSvc,
  type ReportingMethodName,
  type ServerErrorInput,
  type SvcSvelteKitOptions,
} from './server.ts';
