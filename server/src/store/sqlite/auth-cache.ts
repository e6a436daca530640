import type Database from 'better-sqlite3';

const MAX_ENTRIES = 10_000;

/**
 * Live keys cached in memory (the lookup is on every request): auth keys by kind and lookup, and
 * encryption keypairs by project and key id. Revocation stays immediate: the owning store clears
 * the cache on its own key writes, and `PRAGMA data_version`, which changes when another
 * connection (the admin CLI) commits, clears it on theirs. Only hits are cached, so random tokens
 * cannot grow it; it is bounded anyway.
 */
export function createAuthCache<V>(db: Database.Database, load: (key: string) => V | undefined) {
  const version = db.prepare('PRAGMA data_version').pluck();
  let seen = version.get();
  let checked = false;
  const cache = new Map<string, V>();
  return {
    get(key: string): V | undefined {
      // Once per event-loop turn: the pragma costs more than the lookup it guards, and requests
      // of the same turn are concurrent anyway.
      if (!checked) {
        checked = true;
        setImmediate(() => {
          checked = false;
        });
        const v = version.get();
        if (v !== seen) {
          seen = v;
          cache.clear();
        }
      }
      const hit = cache.get(key);
      if (hit) return hit;
      const loaded = load(key);
      if (loaded) {
        if (cache.size >= MAX_ENTRIES) cache.clear();
        cache.set(key, loaded);
      }
      return loaded;
    },
    clear: () => cache.clear(),
  };
}
