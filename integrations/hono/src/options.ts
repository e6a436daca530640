import type { ClientSettings, SvcOptions } from '@svc/runtime';
import { type ReportingMethodName, serverClientConfig } from '@svc/runtime/kit';

export type { ReportingMethodName };

type Env = Record<string, string | undefined>;

/** Options of `svc()` and `instrumentDurableObject()`: the client options of contract 8.5 plus these. */
export interface SvcHonoOptions extends SvcOptions {
  /**
   * Address of your Svc service (a deployment setting, not a contract 8.5 option), e.g.
   * `https://svc.example.com`.
   * @default the `SERVICE_URL` binding or variable, else the spec's default address
   */
  serviceUrl?: string;
  /**
   * Longest time a flush handed to `waitUntil` (or awaited at the end of an alarm) may take; what
   * is not delivered by then is given up with one warning. Kept well under the 30 s Workers give
   * `waitUntil` after the response, so the platform never cancels it.
   * @default 2000
   */
  flushTimeoutMs?: number;
  /**
   * Report unhandled rejections (workerd: the isolate's `unhandledrejection` event; Bun, Deno and
   * Node: the process handlers every Svc server integration installs, which also report uncaught
   * exceptions and flush on SIGTERM / SIGINT, keeping the runtime's own behaviour).
   * @default true
   */
  processHandlers?: boolean;
  /**
   * Bun, Deno and Node: how long a signal or a crash that ends the process waits for queued reports.
   * @default 2000
   */
  shutdownTimeoutMs?: number;
  /**
   * Reporting method (severity + priority) of route errors answered with a 5xx, and of failed
   * `waitUntil` work and Durable Object alarms.
   * @default the failure table's `server-error` / `background-error` method ('majorMedium')
   */
  method?: ReportingMethodName;
  /**
   * Reporting method of unhandled rejections and uncaught exceptions.
   * @default 'criticalHigh' (the `unhandled-rejection` and `uncaught-exception` rows)
   */
  crashMethod?: ReportingMethodName;
}

const OWN_KEYS = [
  'flushTimeoutMs',
  'processHandlers',
  'shutdownTimeoutMs',
  'method',
  'crashMethod',
] as const;

/**
 * Client options and the service address: explicit options first, then the `SERVICE_*` bindings
 * or variables every server side reads, then `NODE_ENV` as the environment (the kit's
 * `serverClientConfig`). Empty values count as unset.
 */
export function clientConfig(
  options: SvcHonoOptions,
  env: Env,
): { options: SvcOptions; settings: ClientSettings } {
  const config = serverClientConfig(options, env, OWN_KEYS);
  return { options: config.options as SvcOptions, settings: config.settings };
}

/** The deadline of a flush handed to `waitUntil`. */
export function flushTimeout(options: SvcHonoOptions): number {
  return options.flushTimeoutMs ?? 2000;
}
