import type { ClientSettings, SvcOptions } from '@svc/runtime';
import { OPTION_ENV, type ReportingMethodName } from '@svc/runtime/kit';

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
   * @default 'major'
   */
  method?: ReportingMethodName;
  /**
   * Reporting method used for uncaught exceptions and unhandled rejections.
   * @default 'critical'
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
 * Client options: explicit options first, then the environment (`SERVICE_KEY_ID`,
 * `SERVICE_SIGNING_SECRET`, `SERVICE_ENCRYPTION_PUBLIC_KEY`, `SERVICE_ENCRYPTION_KEY_ID`,
 * `NODE_ENV` -> environment, `SERVICE_RELEASE` -> release). Empty variables count as unset.
 */
export function clientOptions(options: SvcExpressOptions = {}, env: Env = process.env): SvcOptions {
  const pick = (name: string) => (env[name] ? env[name] : undefined);
  const client: Record<string, unknown> = {
    keyId: pick(OPTION_ENV.keyId),
    signingSecret: pick(OPTION_ENV.signingSecret),
    encryptionPublicKey: pick(OPTION_ENV.encryptionPublicKey),
    encryptionKeyId: pick(OPTION_ENV.encryptionKeyId),
    environment: pick('NODE_ENV'),
    release: pick('SERVICE_RELEASE'),
  };
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined && !(OWN_KEYS as readonly string[]).includes(key)) client[key] = value;
  }
  for (const key of Object.keys(client)) if (client[key] === undefined) delete client[key];
  return client as SvcOptions;
}

/** The service address: the `serviceUrl` option, else `SERVICE_URL` (empty counts as unset). */
export function clientSettings(
  options: SvcExpressOptions = {},
  env: Env = process.env,
): ClientSettings {
  return { serviceUrl: options.serviceUrl || env.SERVICE_URL || undefined };
}
