// Places of server errors for the kit's one title format (`Name: masked message (place)`): what
// kind of code failed and the route *pattern* (`/blog/[slug]`, never `/blog/hello`). Per-event
// detail (message, stack, concrete path) goes into the description and tags.

import { errorTitle } from '@svc/runtime/kit';

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

const ROUTE_TYPE_LABELS: Record<string, string> = {
  render: 'server component',
  route: 'route handler',
  action: 'server action',
  proxy: 'proxy',
  middleware: 'middleware',
};

/** `/app/blog/[slug]/page` style paths become `/blog/[slug]`; an empty pattern becomes `/`. */
export function normaliseRoutePath(routePath: string): string {
  let path = routePath.trim();
  if (!path.startsWith('/')) path = `/${path}`;
  path = path.replace(/\/(page|route)$/, '');
  if (path === '/app' || path === '/pages') return '/';
  path = path.replace(/^\/(app|pages)(?=\/)/, '');
  return path === '' ? '/' : path;
}

/**
 * `TypeError: item <n> missing (route handler GET /api/items/[id])`, `Error: boom (server
 * component /dashboard)`. The HTTP method is part of a route handler's identity (one export per
 * method), so it is kept there and only there. The router kind is a tag, not part of the title:
 * Next 16 reports edge App Router route handlers as `Pages Router`.
 */
export function buildRequestErrorTitle(
  error: unknown,
  request: RequestInfo,
  context: RequestErrorContextInfo,
): string {
  const label = ROUTE_TYPE_LABELS[context.routeType] ?? context.routeType;
  const route = normaliseRoutePath(context.routePath);
  const method = context.routeType === 'route' ? `${request.method.toUpperCase()} ` : '';
  return errorTitle(error, `${label} ${method}${route}`);
}

function slug(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Tags: `next`, `router:app-router`, `route-type:render`, `render-source:...`: what kind of code
 * failed, never a per-event value (the error's digest is in the description).
 */
export function buildRequestErrorTags(context: RequestErrorContextInfo): string[] {
  const tags = ['next', `router:${slug(context.routerKind)}`, `route-type:${context.routeType}`];
  if (context.renderSource) tags.push(`render-source:${context.renderSource}`);
  return tags;
}
