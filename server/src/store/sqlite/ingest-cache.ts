import { type ByteCache, createByteCache, stringBytes } from '../byte-cache.ts';
import type { CardHead } from '../rows.ts';
import type { IngestCacheBudgets } from '../types.ts';

const MiB = 1024 * 1024;
const ENTRY = 64; // Map slot, entry object and boxed number, roughly

const headBytes = (row: CardHead) =>
  200 +
  stringBytes(row.title) +
  stringBytes(row.tags) +
  stringBytes(row.file_name) +
  stringBytes(row.priority) +
  stringBytes(row.severity);

/**
 * The ingest's read caches, each bounded by bytes (least recently used go first). Cards are held
 * without their description, so a cached card costs its title, tags and file name, at most a
 * few kB however long the description.
 */
export function createIngestCaches(budgets: IngestCacheBudgets = {}) {
  const counters = budgets.counters ?? MiB;
  const caches = {
    states: createByteCache<number, string>({ maxBytes: counters, sizeOf: () => ENTRY + 32 }),
    active: createByteCache<number, number>({ maxBytes: counters, sizeOf: () => ENTRY }),
    totals: createByteCache<string, number>({
      maxBytes: counters,
      sizeOf: (k) => ENTRY + stringBytes(k),
    }),
    cards: createByteCache<number, CardHead>({
      maxBytes: budgets.cards ?? 16 * MiB,
      sizeOf: (_, row) => ENTRY + headBytes(row),
    }),
    titles: createByteCache<string, number | null>({
      maxBytes: budgets.titles ?? 4 * MiB,
      sizeOf: (k) => ENTRY + stringBytes(k),
    }),
    /** `projectId\0release` -> its row id (the order first seen), or null: never seen. */
    releases: createByteCache<string, number | null>({
      maxBytes: counters,
      sizeOf: (k) => ENTRY + stringBytes(k),
    }),
  };
  const all: ByteCache<never, unknown>[] = Object.values(caches) as never;
  const clear = () => {
    for (const c of all) c.clear();
  };
  return { ...caches, clear };
}

/** Returns the cached value, else loads, caches and returns it (misses included). */
export function memo<K, V>(cache: ByteCache<K, V>, key: K, load: () => V): V {
  if (cache.has(key)) return cache.get(key) as V;
  const value = load();
  cache.set(key, value);
  return value;
}
