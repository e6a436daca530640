// What a Node server integration does to start, the same for every framework that has no hook of
// its own for it (SvelteKit's `instrumentation.server`, React Router's `entry.server`): the
// process-wide client from the options and the `SERVICE_*` variables, and the process handlers.
// Platform neutral: the integration hands in `initShared` of the runtime entry it bundles with.
import type { SvcClient } from '../core/client.ts';
import type { SvcOptions } from '../core/options.ts';
import type { ClientSettings } from '../core/types.ts';
import type { FrameworkName } from '../generated/integrations.gen.ts';
import type { ReportingMethodName } from '../generated/methods.gen.ts';
import { installProcessHandlers } from './process.ts';
import type { ProcessLike } from './process-like.ts';
import { serverClientConfig } from './settings.ts';

type Env = Record<string, string | undefined>;

/** Options of a server integration: the client options of contract 8.5 plus these. */
export interface ServerIntegrationOptions extends SvcOptions {
  /**
   * Address of your Svc service (a deployment setting, not a contract 8.5 option).
   * @default the `SERVICE_URL` variable, else the spec's default address
   */
  serviceUrl?: string;
  /**
   * Report uncaught exceptions and unhandled rejections of the server process and flush on
   * SIGTERM / SIGINT, keeping Node's behaviour.
   * @default true
   */
  processHandlers?: boolean;
  /** Longest wait for queued reports on a signal or a crash that ends the process. @default 2000 */
  shutdownTimeoutMs?: number;
  /** @default the failure table's `server-error` method ('majorMedium') */
  method?: ReportingMethodName;
  /** @default 'criticalHigh' (the `uncaught-exception` and `unhandled-rejection` rows) */
  crashMethod?: ReportingMethodName;
}

/** The runtime entry's `initShared`. */
export type InitShared = (options: SvcOptions, settings?: ClientSettings) => SvcClient;

const OWN_KEYS = ['processHandlers', 'shutdownTimeoutMs', 'method', 'crashMethod'] as const;

/** `process.env` where there is one. */
function processEnv(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {};
}

/** The process-wide client, made on first use from `options` and `env` (else `process.env`). */
export function sharedServerClient(
  initShared: InitShared,
  options: ServerIntegrationOptions = {},
  env: Env = processEnv(),
): SvcClient {
  const config = serverClientConfig(options, env, OWN_KEYS);
  return initShared(config.options as SvcOptions, config.settings);
}

/**
 * The server's client and, unless `processHandlers: false`, the kit's process handlers for
 * `framework` (`proc`: `globalThis.process`). Returns the client.
 */
export function initServerIntegration(
  initShared: InitShared,
  framework: FrameworkName,
  options: ServerIntegrationOptions = {},
  env?: Env,
  proc = (globalThis as { process?: ProcessLike }).process,
): SvcClient {
  const client = sharedServerClient(initShared, options, env);
  if (options.processHandlers !== false && proc)
    installProcessHandlers(
      client,
      { framework, shutdownTimeoutMs: options.shutdownTimeoutMs, method: options.crashMethod },
      proc,
    );
  return client;
}
