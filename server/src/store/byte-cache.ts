/**
 * A map bounded by an estimate of the bytes its entries hold, dropping the least recently used
 * first (second chance, an LRU approximation).
 */
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

interface Slot<V> {
  value: V;
  bytes: number;
  /** Read or replaced since the eviction walk last passed it. */
  used: boolean;
}

/**
 * Bounded by byte estimate: JavaScript has no cheap exact size of an object, so callers estimate
 * (strings dominate); what matters is that the bound grows with the data held, not with the
 * number of entries, so a few huge rows cannot take the heap.
 */
export function createByteCache<K, V>(opts: ByteCacheOptions<K, V>): ByteCache<K, V> {
  const entries = new Map<K, Slot<V>>();
  let bytes = 0;
  // Second chance (CLOCK) instead of moving an entry to the end on every hit: V8 keeps a deleted
  // Map entry in its bucket chain until the table is rehashed, so touching one hot key by delete
  // and re-insert makes each later lookup of it walk thousands of dead entries (tens of µs). A hit
  // only marks the slot; eviction walks from the oldest with one live iterator (valid across
  // deletions, appends and rehashes, and everything before it is gone), moving a marked slot to
  // the end once and dropping the first unmarked one.
  let oldest: MapIterator<[K, Slot<V>]> | undefined;
  const evict = () => {
    while (bytes > opts.maxBytes && entries.size > 0) {
      oldest ??= entries.entries();
      const next = oldest.next();
      if (next.done) {
        oldest = undefined; // a finished iterator never sees later entries
        continue;
      }
      const [key, slot] = next.value;
      entries.delete(key);
      if (slot.used) {
        slot.used = false;
        entries.set(key, slot);
        continue;
      }
      bytes -= slot.bytes;
      opts.onEvict?.(key, slot.value);
    }
  };
  return {
    has: (key) => entries.has(key),
    get(key) {
      const slot = entries.get(key);
      if (!slot) return undefined;
      slot.used = true;
      return slot.value;
    },
    set(key, value) {
      const size = opts.sizeOf(key, value);
      const slot = entries.get(key);
      if (slot) {
        bytes += size - slot.bytes;
        slot.value = value;
        slot.bytes = size;
        slot.used = true;
      } else {
        entries.set(key, { value, bytes: size, used: false });
        bytes += size;
      }
      evict();
    },
    delete(key) {
      const slot = entries.get(key);
      if (!slot) return;
      bytes -= slot.bytes;
      entries.delete(key);
    },
    clear() {
      entries.clear();
      oldest = undefined;
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
