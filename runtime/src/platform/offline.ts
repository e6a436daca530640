// A browser's offline queue (a lazy chunk, loaded by ./browser.ts a moment after start-up): a
// report the service could not be reached for (a network error or no answer, never an answer such
// as a 4xx) is kept in IndexedDB, at most MAX_KEPT of them for the origin (the oldest dropped,
// counted in one warning a second at most), and sent again when the service answers, when the page
// comes back online, and when the next page of the origin loads the chunk. Each report is sent
// once: taking them is one IndexedDB transaction that reads and deletes them, so two tabs
// never take the same one; one that fails again is kept again. A report kept at unload goes to
// localStorage instead, written before the page goes (an IndexedDB transaction begun while the
// page is torn down may die with it), and the next page takes it from there the same way.
import { OFFLINE_DROPPED } from '../core/messages.ts';
import type { Pipeline } from '../core/pipeline.ts';
import type { OfflineQueue, Prepared } from '../core/send.ts';

/** Reports kept for an origin, at most (the oldest go first). */
export const MAX_KEPT = 30;

const DATABASE = 'svc-offline';
const STORE = 'reports';
/** The localStorage entry of the reports kept at unload (a JSON array of `Kept`). */
const AT_UNLOAD = 'svc-offline-unload';

/** One report kept: the address it was for and its exact bytes (sealed when the client seals). */
interface Kept {
  url: string;
  body: string;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
}

/**
 * The database with its store (made by an upgrade when missing, whoever opened it first).
 * `released` is told when the connection is closed for another page's upgrade.
 */
async function openDatabase(released: () => void, version?: number): Promise<IDBDatabase> {
  const request = indexedDB.open(DATABASE, version);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(STORE))
      request.result.createObjectStore(STORE, { autoIncrement: true });
  };
  const db = await done(request);
  db.onversionchange = () => {
    db.close(); // another page upgrades: let it; the next use opens again
    released();
  };
  if (db.objectStoreNames.contains(STORE)) return db;
  db.close();
  return openDatabase(released, db.version + 1);
}

/**
 * Adds `kept` in a transaction committed at once (a page being torn down runs no more callbacks,
 * and a transaction still open dies with it), then drops the oldest past MAX_KEPT; resolves with
 * how many were dropped.
 */
async function add(db: IDBDatabase, kept: Kept): Promise<number> {
  const tx = db.transaction(STORE, 'readwrite');
  tx.objectStore(STORE).add(kept);
  tx.commit?.();
  await committed(tx);
  return trim(db);
}

/** Drops the oldest reports past MAX_KEPT; resolves with how many. */
async function trim(db: IDBDatabase): Promise<number> {
  const tx = db.transaction(STORE, 'readwrite');
  const store = tx.objectStore(STORE);
  // Keys in order of addition (auto-increment): the oldest first.
  const keys = await done(store.getAllKeys());
  const extra = Math.max(0, keys.length - MAX_KEPT);
  for (const key of keys.slice(0, extra)) store.delete(key);
  await committed(tx);
  return extra;
}

/** Takes (reads and deletes, in one transaction) the reports kept for `url`. */
async function take(db: IDBDatabase, url: string): Promise<Kept[]> {
  const tx = db.transaction(STORE, 'readwrite');
  const store = tx.objectStore(STORE);
  const [records, keys] = await Promise.all([done(store.getAll()), done(store.getAllKeys())]);
  const taken: Kept[] = [];
  records.forEach((record: Kept, i) => {
    if (record?.url !== url) return;
    taken.push(record);
    store.delete(keys[i] as IDBValidKey);
  });
  await committed(tx);
  return taken;
}

/** The reports kept at unload, as stored (none when storage cannot be read). */
function readAtUnload(): Kept[] {
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(AT_UNLOAD) ?? '[]');
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

/**
 * Keeps `kept` at unload, synchronously (the oldest past MAX_KEPT dropped); returns how many were
 * dropped. No storage (private mode, quota): the report is lost.
 */
function keepAtUnload(kept: Kept): number {
  const all = [...readAtUnload(), kept];
  const extra = Math.max(0, all.length - MAX_KEPT);
  try {
    localStorage.setItem(AT_UNLOAD, JSON.stringify(all.slice(extra)));
  } catch {
    return 0;
  }
  return extra;
}

/** Takes (reads and removes, in one task) the reports kept at unload for `url`. */
function takeAtUnload(url: string): Kept[] {
  const all = readAtUnload();
  const taken = all.filter((kept) => kept?.url === url);
  if (!taken.length) return [];
  const rest = all.filter((kept) => kept?.url !== url);
  try {
    if (rest.length) localStorage.setItem(AT_UNLOAD, JSON.stringify(rest));
    else localStorage.removeItem(AT_UNLOAD);
  } catch {
    return []; // not removed: left for a page that can
  }
  return taken;
}

/**
 * The offline queue of one client, once its transport and the warnings' formatting are loaded
 * too (all at hand when the network goes: a warning written offline needs its chunk); it sends what
 * earlier pages kept now, unless offline.
 */
export async function offlineQueue(pipeline: Pipeline): Promise<OfflineQueue> {
  const [{ send }] = await Promise.all([
    pipeline.load(),
    import('../core/debug-format.ts').catch(() => undefined),
  ]);
  const ctx = pipeline.context;
  let opened: Promise<IDBDatabase> | undefined;
  const forget = () => {
    opened = undefined;
  };
  const database = () =>
    (opened ??= openDatabase(forget).catch((error) => {
      forget();
      throw error;
    }));
  database().catch(() => undefined); // opened now: a report kept at unload is written at once
  let resending = false;
  /** Reports dropped and not told yet: one warning a second at most, however many overflow. */
  let dropped = 0;
  const tellDropped = (count: number) => {
    if (!count) return;
    if (!dropped) {
      setTimeout(() => {
        ctx.debug.warn(OFFLINE_DROPPED, dropped, MAX_KEPT);
        dropped = 0;
      }, 1000);
    }
    dropped += count;
  };
  /** Whether the store may hold reports for this client (unknown at first; another tab may add). */
  let mayHold = true;
  const queue: OfflineQueue = {
    keep(prepared: Prepared, atUnload = false) {
      mayHold = true;
      if (atUnload) return tellDropped(keepAtUnload({ url: ctx.url, body: prepared.body }));
      database()
        .then((db) => add(db, { url: ctx.url, body: prepared.body }))
        .then(tellDropped)
        .catch(() => undefined); // no storage (private mode, quota): the report is lost
    },
    resend() {
      if (resending || !mayHold) return;
      resending = true;
      mayHold = false;
      const keptAtUnload = takeAtUnload(ctx.url);
      database()
        .then((db) => take(db, ctx.url))
        .catch(() => [] as Kept[]) // no IndexedDB: what was kept at unload still goes
        .then(async (taken) => {
          // One at a time; a report that fails again is kept again (./transport.ts `send`).
          for (const { body } of [...keptAtUnload, ...taken])
            await send(ctx, { body, auth: await ctx.auth(body), at: Date.now() });
        })
        .catch(() => undefined)
        .finally(() => {
          resending = false;
        });
    },
  };
  addEventListener('online', () => {
    mayHold = true; // another tab may have kept some meanwhile
    queue.resend();
  });
  if (navigator.onLine !== false) queue.resend();
  return queue;
}
