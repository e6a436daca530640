// Server errors are the `server-error` failure of every integration (`@svc/runtime/kit`
// `failureReport`): placed at the method and the route *pattern* (`GET /blog/[slug]`, never
// `/blog/hello`), tagged `next`, `server`, `server-error`, `method:<METHOD>`. Per-event detail
// (message, stack, concrete path, digest) goes into the description.

import { failurePlace, failureReport, type FailureReport } from '@svc/runtime/kit';

/** The subset of Next's `onRequestError` request argument we read. */
export interface RequestInfo {
  path: string;
  method: string;
  /** The request's headers; the same object for every call of one request (see once.ts). */
  headers?: unknown;
}

/** The subset of Next's `onRequestError` context argument we read. */
export interface RequestErrorContextInfo {
  routerKind: string;
  routePath: string;
  routeType: string;
  renderSource?: string;
}

/** `/app/blog/[slug]/page` style paths become `/blog/[slug]`; an empty pattern becomes `/`. */
export function normaliseRoutePath(routePath: string): string {
  let path = routePath.trim();
  if (!path.startsWith('/')) path = `/${path}`;
  path = path.replace(/\/(page|route)$/, '');
  if (path === '/app' || path === '/pages') return '/';
  path = path.replace(/^\/(app|pages)(?=\/)/, '');
  return path === '' ? '/' : path;
}

/** Where a request failed: its method and Next's route pattern (`/api/items/[id]`). */
function where(request: RequestInfo, context: RequestErrorContextInfo) {
  return { method: request.method, route: normaliseRoutePath(context.routePath) };
}

/**
 * `TypeError: item <n> missing (GET /api/items/[id])`, `Error: boom (POST /checkout)`: the place
 * is the method and the route pattern, whatever Next's route type (page, route handler, server
 * action, proxy), as in every integration.
 */
export function buildRequestErrorTitle(
  error: unknown,
  request: RequestInfo,
  context: RequestErrorContextInfo,
): string {
  return failureReport('server-error', 'next', error, where(request, context)).title;
}

/** The place alone: `GET /blog/[slug]`. */
export function requestErrorPlace(request: RequestInfo, context: RequestErrorContextInfo): string {
  return failurePlace('server-error', where(request, context));
}

/** Method, title and tags of a server error (`next`, `server`, `server-error`, `method:GET`). */
export function requestErrorReport(
  error: unknown,
  request: RequestInfo,
  context: RequestErrorContextInfo,
): FailureReport {
  return failureReport('server-error', 'next', error, where(request, context));
}
