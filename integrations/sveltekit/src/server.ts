// SvelteKit's server: `initSvc()` in `src/instrumentation.server.ts` (run before the app's code)
// makes the client and installs the process handlers every Svc server integration installs;
// `handleErrorWithSvc()` as the `handleError` hook reports what SvelteKit answers with a 5xx.
import { initShared, type SvcClient, type SvcOptions } from '@svc/runtime';
import {
  failureReport,
  installProcessHandlers,
  noteRequestReport,
  type ProcessLike,
  type ReportingMethodName,
  reportedByRequest,
  serverClientConfig,
} from '@svc/runtime/kit';
import { answeredStatus } from './status.ts';

export type { ReportingMethodName };

/** Options of `initSvc()` and `handleErrorWithSvc()`: the client options of contract 8.5 plus these. */
export interface SvcSvelteKitOptions extends SvcOptions {
  /**
   * Address of your Svc service (a deployment setting, not a contract 8.5 option).
   * @default the `SERVICE_URL` variable, else the spec's default address
   */
  serviceUrl?: string;
  /**
   * Report uncaught exceptions and unhandled rejections of the server process and flush on
   * SIGTERM / SIGINT, keeping Node's behaviour (`initSvc()` only).
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

type Env = Record<string, string | undefined>;

const OWN_KEYS = ['processHandlers', 'shutdownTimeoutMs', 'method', 'crashMethod'] as const;

/** The server's environment (`process.env` where there is one). */
function processEnv(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {};
}

/** The process-wide client, made on first use from `options` and `env`. */
export function sharedClient(
  options: SvcSvelteKitOptions = {},
  env: Env = processEnv(),
): SvcClient {
  const config = serverClientConfig(options, env, OWN_KEYS);
  return initShared(config.options as SvcOptions, config.settings);
}

/**
 * Makes the server's client (`SERVICE_*` variables of `env`, else of `process.env`) and installs
 * the process handlers; call it in `src/instrumentation.server.ts`. Returns the client.
 */
export function initSvc(options: SvcSvelteKitOptions = {}, env?: Env): SvcClient {
  const client = sharedClient(options, env);
  const proc = (globalThis as { process?: ProcessLike }).process;
  if (options.processHandlers !== false && proc)
    installProcessHandlers(
      client,
      {
        framework: 'sveltekit',
        shutdownTimeoutMs: options.shutdownTimeoutMs,
        method: options.crashMethod,
      },
      proc,
    );
  return client;
}

/**
 * What SvelteKit hands `handleError` on the server (the part Svc reads): SvelteKit 2 gives the
 * answer's `status`; 3 gives the `kind` of error (`unknown`: thrown by the app's code, answered
 * 500; `framework`: SvelteKit's own, such as a 404, with its status; `app` and `validation`: the
 * app's expected errors).
 */
export interface ServerErrorInput {
  error: unknown;
  event: { request: Request; route: { id: string | null } };
  status?: number;
  kind?: string;
  message?: string;
}

/**
 * SvelteKit's server `handleError` hook: reports an unexpected error SvelteKit answers with a 5xx
 * as the `server-error` failure of every integration (`Error: Order <n> could not be loaded (GET
 * /orders/[id])`, tags `sveltekit` `server` `server-error` `method:GET`), then calls `handler`
 * (yours) and returns what it returns. A 404 (no route) is a visitor's mistake: no card.
 */
export function handleErrorWithSvc<R = void>(
  handler?: (input: ServerErrorInput) => R | Promise<R>,
  options: SvcSvelteKitOptions = {},
): (input: ServerErrorInput) => Promise<R | undefined> {
  return async function handleError(input) {
    try {
      if (answeredStatus(input) >= 500 && !reportedByRequest(input.error)) {
        const card = failureReport('server-error', 'sveltekit', input.error, {
          method: input.event.request.method,
          route: input.event.route?.id ?? '(no route)',
        });
        sharedClient(options)[options.method ?? card.method](card.title, input.error, card.tags);
        noteRequestReport(input.error);
      }
    } catch {
      // never throw into SvelteKit's error handling
    }
    return handler ? await handler(input) : undefined;
  };
}
