// One report per error per request. Under `cacheComponents` with Partial Prefetching, Next renders
// a failing page twice within one request (the response, then the runtime prefetch it embeds) and
// calls `onRequestError` for each render, with a new error object and a new digest each time.
// Next passes the same request headers object to every call of one request (a Node request's
// `headers`), so a report is keyed by it; the first call wins.

import { serverState } from './register.ts';

/** What makes two calls of one request the same error: title, message and throw site. */
export function errorKey(title: string, error: unknown): string {
  const { message, stack } = (error ?? {}) as { message?: unknown; stack?: unknown };
  const throwSite = typeof stack === 'string' ? /\n\s+at .*/.exec(stack)?.[0]?.trim() : undefined;
  return [title, String(message ?? ''), throwSite ?? ''].join('\n');
}

/**
 * True the first time `key` is seen for this request. Requests without a headers object (which
 * cannot be told apart) always pass.
 */
export function firstInRequest(headers: unknown, key: string): boolean {
  if (headers === null || typeof headers !== 'object') return true;
  const state = serverState();
  state.reported ??= new WeakMap();
  let keys = state.reported.get(headers);
  if (!keys) {
    keys = new Set();
    state.reported.set(headers, keys);
  }
  if (keys.has(key)) return false;
  keys.add(key);
  return true;
}
