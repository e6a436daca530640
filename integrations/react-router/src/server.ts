// React Router's server (framework mode, `app/entry.server.tsx`): `initSvc()` makes the client and
// installs the process handlers every Svc server integration installs; `handleErrorWithSvc()` is
// the `handleError` export, and `svcInstrumentation()` the `instrumentations` entry that gives each
// request's errors the route pattern React Router matched (`handleError` is not told it): the
// errors `handleError` sees during a request are reported when the request ends with a 5xx, at
// `GET /orders/:id`.
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

export type { ReportingMethodName };

/**
 * Options of `initSvc()`, `handleErrorWithSvc()` and `svcInstrumentation()`: the client options of
 * contract 8.5, `serviceUrl`, `processHandlers` (`initSvc()` only), `shutdownTimeoutMs`,
 * `method`, `crashMethod`.
 */
export type SvcReactRouterOptions = ServerIntegrationOptions;

interface Store<T> {
  run<R>(store: T, fn: () => R): R;
  getStore(): T | undefined;
}

/** The errors `handleError` saw in the request running now. */
type RequestErrors = unknown[];

let requests: Store<RequestErrors> | null | undefined;

/** Node's AsyncLocalStorage (without an import: other runtimes have none, then no pattern). */
function requestStore(): Store<RequestErrors> | undefined {
  if (requests === undefined) {
    try {
      const hooks = (
        globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
      ).process?.getBuiltinModule?.('node:async_hooks') as
        { AsyncLocalStorage: new () => Store<RequestErrors> } | undefined;
      requests = hooks ? new hooks.AsyncLocalStorage() : null;
    } catch {
      requests = null;
    }
  }
  return requests ?? undefined;
}

/**
 * Makes the server's client (`SERVICE_*` variables of `env`, else of `process.env`) and installs
 * the process handlers; call it in `app/entry.server.tsx`. Returns the client.
 */
export function initSvc(
  options: SvcReactRouterOptions = {},
  env?: Record<string, string | undefined>,
): SvcClient {
  return initServerIntegration(initShared, 'react-router', options, env);
}

/** A thrown `Response` or `data(..., { status })` (a route error response) below 500: no card. */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status < 500;
}

/** Reports `error` as the `server-error` failure at `method pattern`; once per error. */
function report(error: unknown, method: string, pattern: string, options: SvcReactRouterOptions) {
  try {
    if (reportedByRequest(error) || isClientError(error)) return;
    const card = failureReport('server-error', 'react-router', error, { method, route: pattern });
    const client = sharedServerClient(initShared, options);
    client[options.method ?? card.method](card.title, error, card.tags);
    noteRequestReport(error);
  } catch {
    // never throw into React Router
  }
}

/** What React Router hands `handleError` (the part Svc reads). */
export interface HandleErrorArgs {
  request: Request;
}

/**
 * React Router's `handleError` export: the errors of loaders, actions and rendering (not aborted
 * requests, not thrown 4xx responses) become the `server-error` card of every integration
 * (`Error: Order <n> could not be loaded (GET /orders/:id)`, tags `react-router` `server`
 * `server-error` `method:GET`), then `handler` (yours) runs. Inside a request instrumented by
 * `svcInstrumentation()` the report waits for the request's end and its route pattern.
 */
export function handleErrorWithSvc(
  handler?: (error: unknown, args: HandleErrorArgs) => void,
  options: SvcReactRouterOptions = {},
): (error: unknown, args: HandleErrorArgs) => void {
  return function handleError(error, args) {
    try {
      const pending = requestStore()?.getStore();
      if (!args.request.signal.aborted) {
        if (pending) pending.push(error);
        else report(error, args.request.method, '(no route)', options);
      }
    } catch {
      // never throw into React Router
    }
    handler?.(error, args);
  };
}

/** The slice of React Router's `ServerInstrumentation` Svc implements. */
export interface SvcServerInstrumentation {
  handler(handler: {
    instrument(instrumentations: {
      request?: (
        handle: () => Promise<{ statusCode: number; meta?: { pattern: string } }>,
        info: { request: { method: string } },
      ) => Promise<void>;
    }): void;
  }): void;
}

/**
 * For `export const instrumentations = [svcInstrumentation()]` in `app/entry.server.tsx`: each
 * request's errors are reported when it ends with a 5xx, at the route pattern it matched.
 */
export function svcInstrumentation(options: SvcReactRouterOptions = {}): SvcServerInstrumentation {
  return {
    handler(handler) {
      handler.instrument({
        async request(handle, info) {
          const errors: RequestErrors = [];
          const store = requestStore();
          const result = await (store ? store.run(errors, handle) : handle());
          if (result.statusCode < 500) return;
          // React Router writes the pattern without its leading slash (`orders/:id`).
          const matched = result.meta?.pattern;
          const pattern = matched === undefined ? '(no route)' : `/${matched.replace(/^\/+/, '')}`;
          for (const error of errors) report(error, info.request.method, pattern, options);
        },
      });
    },
  };
}
