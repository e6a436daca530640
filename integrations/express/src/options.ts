import type { ClientSettings, SvcOptions } from '@svc/runtime';
import { firstSet, type ReportingMethodName, readServerSettings } from '@svc/runtime/kit';

export type { ReportingMethodName };

/** Options of `setupErrorHandler` / `errorHandler`: the client options of contract 8.5 plus these. */
export interface SvcExpressOptions extends SvcOptions {
  /**
   * Address of your Svc service (a deployment setting, not a contract 8.5 option), e.g.
   * `https://svc.example.com`.
   * @default process.env.SERVICE_URL, else the spec's default address
   */
  serviceUrl?: string;
  /**
   * Report `uncaughtException` / `unhandledRejection` and flush on SIGTERM / SIGINT.
   * Only `setupErrorHandler` installs them; `errorHandler` alone never touches `process`.
   * @default true
   */
  processHandlers?: boolean;
  /**
   * How long a signal or crash waits for queued reports before the process goes on shutting down.
   * @default 2000
   */
  shutdownTimeoutMs?: number;
  /**
   * Reporting method (severity + priority) used for 5xx route errors.
   * @default 'majorMedium' (the `server-error` row of the integrations' failure table)
   */
  method?: ReportingMethodName;
  /**
   * Reporting method used for uncaught exceptions and unhandled rejections.
   * @default 'criticalHigh' (the `uncaught-exception` and `unhandled-rejection` rows)
   */
  crashMethod?: ReportingMethodName;
}

type Env = Record<string, string | undefined>;

const OWN_KEYS = [
  'serviceUrl',
  'processHandlers',
  'shutdownTimeoutMs',
  'method',
  'crashMethod',
] as const;

/**
 * Client options: explicit options first, then the `SERVICE_*` variables every server side reads
 * (`SERVICE_API_KEY`, `SERVICE_KEY_ID`, `SERVICE_SIGNING_SECRET`, `SERVICE_ENCRYPTION_PUBLIC_KEY`,
 * `SERVICE_ENCRYPTION_KEY_ID`, `SERVICE_ENVIRONMENT`, `SERVICE_RELEASE`), then `NODE_ENV` as the
 * environment. Empty variables count as unset.
 */
export function clientOptions(options: SvcExpressOptions = {}, env: Env = process.env): SvcOptions {
  const { serviceUrl: _address, ...fromEnv } = readServerSettings(env);
  const explicit: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options))
    if (!(OWN_KEYS as readonly string[]).includes(key)) explicit[key] = value;
  return firstSet<SvcOptions>(explicit, fromEnv, { environment: env.NODE_ENV }) as SvcOptions;
}

/** The service address: the `serviceUrl` option, else `SERVICE_URL` (empty counts as unset). */
export function clientSettings(
  options: SvcExpressOptions = {},
  env: Env = process.env,
): ClientSettings {
  return { serviceUrl: options.serviceUrl || readServerSettings(env).serviceUrl };
}
