// Where an error happened, for the runtime kit's one title format (`Name: masked message
// (place)`). Places are route *patterns* (`GET /api/items/:id`), never the concrete URL; the
// error's message and stack go into the description. Same places as @svc/express.
import { PLACES } from '@svc/runtime/kit';

/** Server place: `GET /api/items/:id`. */
export function serverPlace(method: string | undefined, pattern: string): string {
  return method ? `${method.toUpperCase()} ${pattern}` : pattern;
}

/** Place of a server error outside any request, from Nitro's capture tags. */
export function processPlace(tags: readonly string[] | undefined): string {
  if (tags?.includes('unhandledRejection')) return PLACES.unhandledRejection;
  if (tags?.includes('uncaughtException')) return PLACES.uncaughtException;
  return 'server, outside a request';
}

/** Vue Router pattern as Nuxt writes it (`/items/:id()`) -> `/items/:id`. */
export function vuePattern(path: string | undefined): string | undefined {
  return path?.replace(/\(\)/g, '');
}

/**
 * Fallback pattern when no router matched (errors in server middleware): the path without its
 * query, with id-like segments (numbers, UUIDs, long hex) replaced by `:param`.
 */
export function patternFromPath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] || '/';
  return bare
    .split('/')
    .map((s) => (/^(\d+|[0-9a-f]{8,}|[0-9a-f-]{36}|[A-Za-z0-9_-]{20,})$/i.test(s) ? ':param' : s))
    .join('/');
}

/** The part of Vue Router the plugins read (typed locally: apps without pages have no routes). */
export interface RouterLike {
  currentRoute?: { value?: { path?: string; matched?: { path: string }[] } };
}

/** What the Nitro `error` hook passes along with the error. */
export interface ErrorContext {
  event?: {
    method?: string;
    path?: string;
    context?: { matchedRoute?: { path?: string }; svcRoute?: string };
  };
  tags?: string[];
}

/**
 * Server place: the Vue route pattern recorded for a failed page render, else the Nitro route
 * pattern (not the renderer's catch-all `/**`), else the masked path; outside a request, from
 * Nitro's capture tags.
 */
export function serverErrorPlace(context: ErrorContext | undefined): string {
  const event = context?.event;
  if (!event) return processPlace(context?.tags);
  const matched = event.context?.matchedRoute?.path;
  const pattern =
    event.context?.svcRoute ??
    (matched && matched !== '/**' ? matched : undefined) ??
    patternFromPath(event.path ?? '/');
  return serverPlace(event.method, pattern);
}
