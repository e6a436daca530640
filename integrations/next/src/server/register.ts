// `register()` half of instrumentation.ts: creates the one shared server client (Node and edge)
// and, in the Node.js runtime, the process's crash handlers (./crashes.ts).

import { getShared, initShared, type SvcClient, type SvcOptions } from '@svc/runtime';
import {
  carrierSlot,
  firstSet,
  type PublicClientOptions,
  readServerSettings,
  redact,
} from '@svc/runtime/kit';
import type { ReportingMethodName } from '../shared/types.ts';
import { flushOnServerClose } from './close.ts';
import { reportCrashes } from './crashes.ts';

/** Options of {@link registerSvc}: the runtime's options plus the Next-specific ones. */
export interface SvcNextServerOptions extends SvcOptions {
  /**
   * Address of your Svc service (a deployment setting, not a contract 8.5 option).
   * @default process.env.SERVICE_URL at run time, else the runtime's default address
   */
  serviceUrl?: string;
  /**
   * The build's public values (`svc-next init` passes the literal `process.env.NEXT_PUBLIC_SERVICE_*`
   * that Next inlines: address, encryption key, environment, release), used where the `SERVICE_*`
   * variable is unset at run time. The publishable key is the browser's and is not taken.
   * @default {}
   */
  fromBuild?: Omit<PublicClientOptions, 'apiKey'> & { serviceUrl?: string };
  /**
   * Longest time one flush may take, in milliseconds: a failing request's (handed to `waitUntil` or
   * `after()`, or awaited with `flushBeforeResponse`), and the one Next's server awaits when it
   * closes (SIGTERM under `next start`). Never more than the runtime's exit budget.
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
  /**
   * Report the server process's uncaught exceptions and unhandled rejections (Node.js runtime
   * only). Next keeps its server running after both; so does Svc.
   * @default true
   */
  processHandlers?: boolean;
  /**
   * Reporting method used for uncaught exceptions and unhandled rejections.
   * @default 'criticalHigh' (the `uncaught-exception` and `unhandled-rejection` rows)
   */
  crashMethod?: ReportingMethodName;
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

/** `process.env`, or nothing where there is none. */
function processEnv(): Record<string, string | undefined> {
  return typeof process !== 'undefined' ? (process.env ?? {}) : {};
}

/** Whether the response waits for its reports (see `flushBeforeResponse`). */
export function flushesBeforeResponse(state: ServerState = serverState()): boolean {
  return state.flushBeforeResponse ?? Boolean(processEnv().AWS_LAMBDA_FUNCTION_NAME);
}

/**
 * The client options and address of the server client: `options` first, then the `SERVICE_*`
 * variables every server side reads (`SERVICE_URL`, `SERVICE_API_KEY`, `SERVICE_KEY_ID`,
 * `SERVICE_SIGNING_SECRET`, `SERVICE_ENCRYPTION_*`, `SERVICE_ENVIRONMENT`, `SERVICE_RELEASE`), then
 * the build's public values (`fromBuild`), then `NODE_ENV` as the environment.
 */
export function serverClientOptions(
  options: Omit<SvcNextServerOptions, 'flushTimeoutMs'>,
  env: Record<string, string | undefined>,
): { options: SvcOptions; serviceUrl: string | undefined } {
  const { serviceUrl, fromBuild = {}, ...given } = options;
  const { serviceUrl: address, ...settings } = firstSet<SvcOptions & { serviceUrl?: string }>(
    { ...given, serviceUrl },
    readServerSettings(env),
    fromBuild,
    { environment: env.NODE_ENV },
  );
  return { options: settings, serviceUrl: address };
}

/**
 * Creates (once) the shared server client from `options` and the `SERVICE_*` variables, read at
 * run time ({@link serverClientOptions}). Never throws: without credentials the runtime disables
 * itself with a warning. Later calls return the same client.
 */
export function registerSvc(options: SvcNextServerOptions = {}): SvcClient | undefined {
  try {
    const state = serverState();
    const { flushTimeoutMs, flushBeforeResponse, processHandlers, crashMethod, ...clientOptions } =
      options;
    let client = getShared();
    if (!client) {
      if (flushTimeoutMs !== undefined) state.flushTimeoutMs = flushTimeoutMs;
      if (flushBeforeResponse !== undefined) state.flushBeforeResponse = flushBeforeResponse;
      if (clientOptions.debug !== undefined) state.debug = clientOptions.debug;
      const resolved = serverClientOptions(clientOptions, processEnv());
      client = initShared(resolved.options, { serviceUrl: resolved.serviceUrl });
    }
    // A literal `process.env.NEXT_RUNTIME`: Next inlines it, so edge bundles drop the calls.
    if (process.env.NEXT_RUNTIME !== 'edge') {
      if (processHandlers !== false)
        reportCrashes(client, { method: crashMethod, timeoutMs: state.flushTimeoutMs });
      const log = state.debug ? (message: string) => console.debug(message) : () => {};
      void flushOnServerClose(client, state.flushTimeoutMs, log);
    }
    return client;
  } catch (error) {
    console.warn(
      '[svc/next] could not start the server client:',
      redact((error as Error)?.message, []),
    );
    return undefined;
  }
}
