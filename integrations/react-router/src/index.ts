export {
  type HandleErrorArgs,
  handleErrorWithSvc,
  initSvc,
  type ReportingMethodName,
  type SvcReactRouterOptions,
  type SvcServerInstrumentation,
  svcInstrumentation,
} from './server.ts';
