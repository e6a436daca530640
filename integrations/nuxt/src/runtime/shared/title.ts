// What kind of failure a Nitro error is, and where it happened, for the runtime kit's failure
// table (`failureReport`): a request's method and route *pattern* (`GET /api/items/:id`), never the
// concrete URL; the error's message and stack go into the description. Same as @svc/express.
import type { FailureWhere } from '@svc/runtime/kit';

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

/** A Nitro error's failure kind and place. */
export interface ServerFailure {
  kind: 'server-error' | 'uncaught-exception' | 'unhandled-rejection';
  where: FailureWhere;
}

/**
 * A request's error is a `server-error` at the Vue route pattern recorded for a failed page
 * render, else the Nitro route pattern (not the renderer's catch-all `/**`), else the masked path.
 * Outside a request, Nitro's capture tags say which crash it is (`unhandledRejection`, else an
 * uncaught exception).
 */
export function serverFailure(context: ErrorContext | undefined): ServerFailure {
  const event = context?.event;
  if (!event) {
    const rejection = context?.tags?.includes('unhandledRejection');
    return { kind: rejection ? 'unhandled-rejection' : 'uncaught-exception', where: {} };
  }
  const matched = event.context?.matchedRoute?.path;
  const route =
    event.context?.svcRoute ??
    (matched && matched !== '/**' ? matched : undefined) ??
    patternFromPath(event.path ?? '/');
  return { kind: 'server-error', where: { method: event.method, route } };
}
