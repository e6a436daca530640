// `register()` half of instrumentation.ts: creates the one shared server client (Node and edge).

import { getShared, initShared, type SvcClient, type SvcOptions } from '@svc/runtime';
import { carrierSlot, OPTION_ENV } from '@svc/runtime/kit';

/** Options of {@link registerSvc}: the runtime's options plus the Next-specific ones. */
export interface SvcNextServerOptions extends SvcOptions {
  /**
   * Address of your Svc service (a deployment setting, not a contract 8.5 option).
   * @default process.env.SERVICE_URL at run time, else `NEXT_PUBLIC_SERVICE_URL`, else the
   * runtime's default address
   */
  serviceUrl?: string;
  /**
   * Longest time one flush of a failing request's reports may take, in milliseconds (handed to
   * `waitUntil` or `after()`, or awaited with `flushBeforeResponse`).
   * @default 2000
   */
  flushTimeoutMs?: number;
  /**
   * Hold the error response until its reports are sent (at most `flushTimeoutMs`) when the
   * platform offers no `waitUntil`. For serverless platforms that freeze the process after the
   * response without giving Next a `waitUntil`; on a long-running server the background queue
   * delivers and the response never waits.
   * @default true on AWS Lambda (`AWS_LAMBDA_FUNCTION_NAME` set), else false
   */
  flushBeforeResponse?: boolean;
}

interface ServerState {
  flushTimeoutMs: number;
  flushBeforeResponse?: boolean;
  debug: boolean;
  /** Errors already reported, per request (its headers object; see once.ts). */
  reported?: WeakMap<object, Set<string>>;
}

/** Settings shared by every copy of this package in the process (the global carrier's slot). */
export function serverState(): ServerState {
  return carrierSlot<ServerState>('nextServer', () => ({ flushTimeoutMs: 2000, debug: false }));
}

/** Whether the response waits for its reports (see `flushBeforeResponse`). */
export function flushesBeforeResponse(state: ServerState = serverState()): boolean {
  return state.flushBeforeResponse ?? env('AWS_LAMBDA_FUNCTION_NAME') !== undefined;
}

function env(name: string): string | undefined {
  const value = typeof process !== 'undefined' ? process.env?.[name] : undefined;
  return value === undefined || value === '' ? undefined : value;
}

/** `options` over `defaults`, where an `undefined` option keeps the default. */
export function withDefaults(options: SvcOptions, defaults: SvcOptions): SvcOptions {
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) merged[key] = value;
  return merged as SvcOptions;
}

/**
 * Creates (once) the shared server client, posting to `SERVICE_URL`. Credentials default to `SERVICE_KEY_ID` and
 * `SERVICE_SIGNING_SECRET`; `environment` and `release` default to what `withSvc` injected
 * (`NEXT_PUBLIC_SERVICE_ENVIRONMENT`, `NEXT_PUBLIC_SERVICE_RELEASE`). Never throws: without
 * credentials the runtime disables itself with a warning. Later calls return the same client.
 */
export function registerSvc(options: SvcNextServerOptions = {}): SvcClient | undefined {
  try {
    const state = serverState();
    const existing = getShared();
    if (existing) return existing;
    const { flushTimeoutMs, flushBeforeResponse, serviceUrl, ...clientOptions } = options;
    if (flushTimeoutMs !== undefined) state.flushTimeoutMs = flushTimeoutMs;
    if (flushBeforeResponse !== undefined) state.flushBeforeResponse = flushBeforeResponse;
    if (clientOptions.debug !== undefined) state.debug = clientOptions.debug;
    const defaults: SvcOptions = {
      keyId: env(OPTION_ENV.keyId),
      signingSecret: env(OPTION_ENV.signingSecret),
      environment: env('NEXT_PUBLIC_SERVICE_ENVIRONMENT') ?? env('SERVICE_ENVIRONMENT'),
      release: env('NEXT_PUBLIC_SERVICE_RELEASE') ?? env('SERVICE_RELEASE'),
    };
    return initShared(withDefaults(clientOptions, defaults), {
      serviceUrl: serviceUrl || env('SERVICE_URL') || env('NEXT_PUBLIC_SERVICE_URL'),
    });
  } catch (error) {
    console.warn('[svc/next] could not start the server client:', (error as Error)?.message);
    return undefined;
  }
}
