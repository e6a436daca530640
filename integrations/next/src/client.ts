'use client';
export {
  SvcErrorBoundary,
  type SvcErrorBoundaryProps,
  useSvcErrorReport,
} from './client/boundary.tsx';
export { registerSvcClient, type SvcNextClientOptions } from './client/init.ts';
export { type ClientErrorSource, clientErrorReport, reportClientError } from './client/report.ts';
export { installWindowHandlers } from './client/window.ts';
export { isControlFlowError } from './shared/control-flow.ts';
