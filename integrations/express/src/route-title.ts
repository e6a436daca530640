import type { Request } from 'express';
import { failurePlace } from '@svc/runtime/kit';

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
 * Where a request failed, for the place of its card title (`failureReport` of `@svc/runtime/kit`:
 * `GET /api/users/:id`): the method and the route pattern, mount prefix included, never the raw
 * URL. Errors raised outside any route get the route `(no route)`.
 */
export function requestRoute(req: RouteRequest): { method: string; route: string } {
  const { method } = req;
  const path: unknown = req.route?.path;
  if (typeof path !== 'string') {
    if (path instanceof RegExp) return { method, route: String(path) };
    if (Array.isArray(path)) return { method, route: path.map(String).join('|') };
    return { method, route: '(no route)' };
  }
  let prefix = '';
  try {
    prefix = mountPrefix(req, path);
  } catch {
    // malformed URL encoding: fall back to the bare pattern
  }
  const joined = prefix ? `/${prefix}${path === '/' ? '' : path}` : path;
  return { method, route: joined || '/' };
}

/** The place in the card title of a request's failure: `GET /api/users/:id`. */
export function routeTitle(req: RouteRequest): string {
  return failurePlace('server-error', requestRoute(req));
}
