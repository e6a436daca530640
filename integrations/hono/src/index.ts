export { svc, executionContext } from './middleware.ts';
export { onError } from './on-error.ts';
export { instrumentDurableObject } from './durable-object.ts';
export { runtimeEnvironment } from './environment.ts';
export type { ReportingMethodName, SvcHonoOptions } from './options.ts';
export { getShared } from '@svc/runtime';
