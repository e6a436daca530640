import type { Request } from 'express';

// A mount prefix (`req.baseUrl`) holds the matched URL, not the pattern, so segments that look like
// per-request values are masked to keep the title stable.
const VALUE_SEGMENT = /^(\d+|[0-9a-f]{8,}|[0-9a-f-]{36}|[A-Za-z0-9_-]{20,})$/i;

function maskBase(baseUrl: string): string {
  return baseUrl
    .split('/')
    .map((segment) => (VALUE_SEGMENT.test(segment) ? ':param' : segment))
    .join('/');
}

/**
 * Stable card title of a failing request: the method and the route pattern
 * (`GET /users/:id`), never the raw URL. Errors raised outside any route get `GET (no route)`.
 */
export function routeTitle(req: Pick<Request, 'method' | 'baseUrl' | 'route'>): string {
  const path: unknown = req.route?.path;
  const pattern =
    typeof path === 'string'
      ? path
      : path instanceof RegExp
        ? String(path)
        : Array.isArray(path)
          ? path.map(String).join('|')
          : undefined;
  if (pattern === undefined) return `${req.method} (no route)`;
  const base = maskBase(req.baseUrl ?? '');
  const joined = `${base}${pattern === '/' && base ? '' : pattern}`;
  return `${req.method} ${joined || '/'}`;
}
