// The one rule of every lazy chunk: loaded on first need, once; a load that fails is forgotten, so
// the next need tries again (a failure nobody waits for is no unhandled rejection). The chunk, once
// loaded, is `loaded` (synchronous use).

export interface Lazy<T> {
  /** Starts loading (once) and resolves with the chunk; rejects when this load failed. */
  (): Promise<T>;
  /** The chunk, once loaded. */
  loaded?: T;
}

export function lazy<T>(load: () => Promise<T>): Lazy<T> {
  let loading: Promise<T> | undefined;
  const get = (() => {
    if (!loading) {
      loading = load().then(
        (chunk) => (get.loaded = chunk),
        (error) => {
          loading = undefined;
          throw error;
        },
      );
      loading.catch(() => undefined);
    }
    return loading;
  }) as Lazy<T>;
  return get;
}
