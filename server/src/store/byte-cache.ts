/** A map bounded by an estimate of the bytes its entries hold, dropping the least recently used. */
export interface ByteCache<K, V> {
  has(key: K): boolean;
  /** Marks the entry as used. */
  get(key: K): V | undefined;
  /** Adds or replaces (re-measuring a value that grew), then evicts down to the budget. */
  set(key: K, value: V): void;
  delete(key: K): void;
  clear(): void;
  readonly size: number;
  readonly bytes: number;
}

export interface ByteCacheOptions<K, V> {
  /** Budget for the sum of `sizeOf` over the entries. */
  maxBytes: number;
  /** Estimated bytes of one entry (strings count 2 bytes a character plus a fixed overhead). */
  sizeOf: (key: K, value: V) => number;
  /** Called for each entry evicted to meet the budget (not for delete or clear). @default none */
  onEvict?: (key: K, value: V) => void;
}

/** Estimated heap bytes of a string: UTF-16 worst case plus the object header. */
export const stringBytes = (s: string | null | undefined): number =>
  s == null ? 0 : 16 + 2 * s.length;

/**
 * LRU by byte estimate: JavaScript has no cheap exact size of an object, so callers estimate
 * (strings dominate); what matters is that the bound grows with the data held, not with the
 * number of entries, so a few huge rows cannot take the heap.
 */
export function createByteCache<K, V>(opts: ByteCacheOptions<K, V>): ByteCache<K, V> {
  const entries = new Map<K, { value: V; bytes: number }>();
  let bytes = 0;
  const evict = () => {
    for (const [key, entry] of entries) {
      if (bytes <= opts.maxBytes) return;
      entries.delete(key);
      bytes -= entry.bytes;
      opts.onEvict?.(key, entry.value);
    }
  };
  return {
    has: (key) => entries.has(key),
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      const old = entries.get(key);
      if (old) {
        bytes -= old.bytes;
        entries.delete(key);
      }
      const size = opts.sizeOf(key, value);
      entries.set(key, { value, bytes: size });
      bytes += size;
      evict();
    },
    delete(key) {
      const old = entries.get(key);
      if (!old) return;
      bytes -= old.bytes;
      entries.delete(key);
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
