// Public exports shared by the entries (src/index.node.ts, src/index.browser.ts, src/index.deno.ts).
export type { SvcClient } from './core/client.ts';
export type { SvcOptions } from './core/options.ts';
export { getShared } from './core/shared.ts';
export type { ClientDeps, ClientSettings, FlushResult, Logger, WirePayload } from './core/types.ts';
export {
  SvcAuthError,
  SvcError,
  SvcRateLimitError,
  SvcServerError,
  SvcValidationError,
} from './generated/errors.gen.ts';
export type { Priority, ReportingMethodName, Severity, Tags } from './generated/methods.gen.ts';
export { SERVICE_URL, TASKS_PATH } from './generated/service.gen.ts';
