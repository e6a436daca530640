// SvelteKit's server: `initSvc()` in `src/instrumentation.server.ts` (run before the app's code)
// makes the client and installs the process handlers every Svc server integration installs;
// `handleErrorWithSvc()` as the `handleError` hook reports what SvelteKit answers with a 5xx.
import { initShared, type SvcClient } from '@svc/runtime';
import {
  failureReport,
  initServerIntegration,
  noteRequestReport,
  type ReportingMethodName,
  reportedByRequest,
  type ServerIntegrationOptions,
  sharedServerClient,
} from '@svc/runtime/kit';
import { answeredStatus } from './status.ts';

export type { ReportingMethodName };

/**
 * Options of `initSvc()` and `handleErrorWithSvc()`: the client options of contract 8.5,
 * `serviceUrl`, `processHandlers` (`initSvc()` only), `shutdownTimeoutMs`, `method`, `crashMethod`.
 */
export type SvcSvelteKitOptions = ServerIntegrationOptions;

/**
 * Makes the server's client (`SERVICE_*` variables of `env`, else of `process.env`) and installs
 * the process handlers; call it in `src/instrumentation.server.ts`. Returns the client.
 */
export function initSvc(
  options: SvcSvelteKitOptions = {},
  env?: Record<string, string | undefined>,
): SvcClient {
  return initServerIntegration(initShared, 'sveltekit', options, env);
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
        const client = sharedServerClient(initShared, options);
        client[options.method ?? card.method](card.title, input.error, card.tags);
        noteRequestReport(input.error);
      }
    } catch {
      // never throw into SvelteKit's error handling
    }
    return handler ? await handler(input) : undefined;
  };
}
