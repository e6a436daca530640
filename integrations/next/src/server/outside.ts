// Reports leave Next's request context. Next keeps per-request state in AsyncLocalStorage, and
// under `cacheComponents` it renders some requests twice, the second time as a prerender (Partial
// Prefetching's runtime prefetch). Inside a prerender Next treats the clock, randomness and
// `fetch` as the page's own I/O: `Date.now()` (the signature's timestamp) interrupts the render
// with an "unstable value" error, and an uncached `fetch` becomes a promise that rejects when the
// prerender ends (the report is then lost as a network error). Everything the SDK does for a
// report (building, signing, queueing, sending, flushing) therefore runs in the async context
// captured when `register()` ran, before any request, where none of Next's stores is set.

/** Runs `fn` in a captured async context. */
export type ContextRunner = <R>(fn: () => R) => R;

interface AsyncLocalStorageStatics {
  snapshot?: () => <R>(fn: () => R) => R;
}

const passThrough: ContextRunner = (fn) => fn();

/**
 * A runner for the current async context: `AsyncLocalStorage.snapshot()`, which Next exposes as
 * `globalThis.AsyncLocalStorage` in the Node and edge runtimes. Without it, a pass-through.
 */
export function snapshotContext(
  statics = (globalThis as { AsyncLocalStorage?: AsyncLocalStorageStatics }).AsyncLocalStorage,
): ContextRunner {
  try {
    const snapshot = statics?.snapshot?.();
    if (typeof snapshot !== 'function') return passThrough;
    return (fn) => snapshot(fn);
  } catch {
    return passThrough;
  }
}
