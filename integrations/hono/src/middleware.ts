// `app.use(svc())`: the client of the isolate or process, route errors answered with a 5xx
// reported once (Hono's `onError`, the app's or its default, has answered them: `c.error` and the
// status tell), `waitUntil` watched, and the request's flush chained onto it.
import type { SvcClient } from '@svc/runtime';
import { failureReport, noteRequestReport, reportedByRequest } from '@svc/runtime/kit';
import type { Context, MiddlewareHandler } from 'hono';
import { sharedClient } from './client.ts';
import { installCrashHandlers } from './crashes.ts';
import type { SvcHonoOptions } from './options.ts';
import { flushOnWaitUntil, type WaitUntilContext, watchWaitUntil } from './wait-until.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** The Svc client of the isolate or process (`c.var.svc.minorLow('Cache cold', ...)`). */
    svc: SvcClient;
  }
}

/** The request's execution context (Workers), or undefined (Bun, Deno and Node have none). */
export function executionContext(c: Context): WaitUntilContext | undefined {
  try {
    const context = c.executionCtx as unknown as WaitUntilContext;
    return typeof context?.waitUntil === 'function' ? context : undefined;
  } catch {
    return undefined; // Hono throws where there is none
  }
}

/** The route pattern Hono matched for the handler that ran last (`/orders/:id`). */
function route(c: Context): string | undefined {
  try {
    return c.req.routePath;
  } catch {
    return undefined;
  }
}

/**
 * Reports `error` as the `server-error` failure of every Svc integration (`Error: Order <n> could
 * not be loaded (GET /orders/:id)`), once per error; never throws.
 */
export function reportRouteError(
  client: SvcClient,
  c: Context,
  error: unknown,
  options: SvcHonoOptions,
): void {
  try {
    if (reportedByRequest(error)) return;
    const card = failureReport('server-error', 'hono', error, {
      method: c.req.method,
      route: route(c),
    });
    client[options.method ?? card.method](card.title, error, card.tags);
    noteRequestReport(error);
  } catch {
    // never throw into the app
  }
}

/** The client for `c` (never throws: a broken setup gives a client that sends nothing). */
export function clientFor(c: Context, options: SvcHonoOptions): SvcClient {
  const client = sharedClient(options, c.env);
  installCrashHandlers(client, options);
  return client;
}

/**
 * Svc's Hono middleware; put it first (`app.use(svc())`). Route errors the app answers with a 5xx
 * become cards; failed `waitUntil` work and unhandled rejections too; on Workers every report is
 * delivered inside the request's `waitUntil`.
 * @param options client options (contract 8.5; else the `SERVICE_*` bindings or variables) and
 *   this integration's (`flushTimeoutMs`, `processHandlers`, `method`...).
 */
export function svc(options: SvcHonoOptions = {}): MiddlewareHandler {
  return async function svcMiddleware(c, next) {
    const client = clientFor(c, options);
    c.set('svc', client);
    const context = executionContext(c);
    if (context)
      watchWaitUntil(context, client, options, () => ({
        task: `waitUntil of ${c.req.method} ${route(c) ?? ''}`.trim(),
        method: c.req.method,
      }));
    try {
      await next();
    } catch (error) {
      // Hono rethrows what is not an Error (its onError only sees Error instances).
      reportRouteError(client, c, error, options);
      flushOnWaitUntil(context, client, options);
      throw error;
    }
    if (c.error !== undefined && c.res.status >= 500) reportRouteError(client, c, c.error, options);
    flushOnWaitUntil(context, client, options);
  };
}
