// The reporting method names come from the spec's generated table, through the runtime's kit.
export type { ReportingMethodName } from '@svc/runtime/kit';
