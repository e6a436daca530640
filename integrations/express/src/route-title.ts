import type { Request } from 'express';

// Mount prefixes are only known as matched URL text, not as patterns, so segments that look like
// per-request values are masked to keep the title stable.
const VALUE_SEGMENT = /^(\d+|[0-9a-f]{8,}|[0-9a-f-]{36}|[A-Za-z0-9_-]{20,})$/i;

const segments = (path: string) => path.split('/').filter(Boolean);

function mask(parts: string[]): string {
  return parts.map((s) => (VALUE_SEGMENT.test(s) ? ':param' : s)).join('/');
}

/**
 * The router mount prefix of a request. Inside the router it is `req.baseUrl`; Express resets that
 * when the error leaves the router, so it is then recovered from `originalUrl` by dropping as many
 * trailing segments as the route pattern has (plain string patterns only).
 */
function mountPrefix(req: RouteRequest, pattern: string): string {
  if (req.baseUrl) return mask(segments(req.baseUrl));
  if (/[*{}()]/.test(pattern) || !req.originalUrl) return '';
  const url = segments(decodeURI(req.originalUrl.split('?')[0]!));
  const keep = url.length - segments(pattern).length;
  return keep > 0 ? mask(url.slice(0, keep)) : '';
}

type RouteRequest = Pick<Request, 'method' | 'baseUrl' | 'route'> & { originalUrl?: string };

/**
 * Where a request failed, the place part of its card title (`@svc/runtime/kit` `errorTitle`): the
 * method and the route pattern, mount prefix included (`GET /api/users/:id`), never the raw URL.
 * Errors raised outside any route get `GET (no route)`.
 */
export function routeTitle(req: RouteRequest): string {
  const path: unknown = req.route?.path;
  if (typeof path !== 'string') {
    if (path instanceof RegExp) return `${req.method} ${String(path)}`;
    if (Array.isArray(path)) return `${req.method} ${path.map(String).join('|')}`;
    return `${req.method} (no route)`;
  }
  let prefix = '';
  try {
    prefix = mountPrefix(req, path);
  } catch {
    // malformed URL encoding: fall back to the bare pattern
  }
  const joined = prefix ? `/${prefix}${path === '/' ? '' : path}` : path;
  return `${req.method} ${joined || '/'}`;
}
