import type Database from 'better-sqlite3';
import type { AuthKey } from './types.ts';

const MAX_ENTRIES = 10_000;

/**
 * Live keys cached in memory (the lookup is on every request). Revocation stays immediate: the
 * owning store clears the cache on its own writes, and `PRAGMA data_version`, which changes when
 * another connection (the admin CLI) commits, clears it on theirs. Only hits are cached, so random
 * tokens cannot grow it; it is bounded anyway.
 */
export function createAuthCache(
  db: Database.Database,
  load: (kind: 'publishable' | 'secret', lookup: string) => AuthKey | undefined,
) {
  const version = db.prepare('PRAGMA data_version').pluck();
  let seen = version.get();
  let checked = false;
  const cache = new Map<string, AuthKey>();
  return {
    get(kind: 'publishable' | 'secret', lookup: string): AuthKey | undefined {
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
      const k = `${kind}:${lookup}`;
      const hit = cache.get(k);
      if (hit) return hit;
      const loaded = load(kind, lookup);
      if (loaded) {
        if (cache.size >= MAX_ENTRIES) cache.clear();
        cache.set(k, loaded);
      }
      return loaded;
    },
    clear: () => cache.clear(),
  };
}
