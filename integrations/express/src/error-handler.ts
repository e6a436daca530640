import type { ErrorRequestHandler } from 'express';
import type { SvcClient } from '@svc/runtime';
import { failureReport } from '@svc/runtime/kit';
import { requestRoute } from './route-title.ts';
import { sharedClient } from './client.ts';
import type { SvcExpressOptions } from './options.ts';

/** HTTP status an error asks for, the way Express' final handler reads it; 500 otherwise. */
export function errorStatus(err: unknown): number {
  const e = err as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : e?.statusCode;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 600
    ? status
    : 500;
}

/**
 * Express 5 error middleware: reports server errors (5xx; a 4xx is the visitor's mistake and makes
 * no card) as the `server-error` failure of every integration (`TypeError: order <n> missing (GET
 * /orders/:id)`: class, masked message, route pattern; tags `express`, `server`, `server-error`,
 * `method:<METHOD>`), then always calls `next(err)` so the host's own error handler still runs.
 * Place it after the routes.
 * @param options client options (section 8.5, read with the environment) and `method`.
 * @param client the client to report with. @default the process-wide shared client, created on
 *   the first server error
 */
export function errorHandler(
  options: SvcExpressOptions = {},
  client?: SvcClient,
): ErrorRequestHandler {
  let resolved = client;
  return function svcErrorHandler(err, req, _res, next) {
    try {
      if (errorStatus(err) >= 500) {
        resolved ??= sharedClient(options);
        const report = failureReport('server-error', 'express', err, requestRoute(req));
        resolved[options.method ?? report.method](report.title, err, report.tags);
      }
    } catch {
      // Never throw into the host: reporting problems go through the runtime's debug channel.
    }
    next(err);
  };
}
