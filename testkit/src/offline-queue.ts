// What a page's origin keeps in the browser SDK's offline queue (IndexedDB), read in the page:
// the runtime's offline tests and the cross-framework matrix's exit cases both count it. The SDK
// opens its database a moment after start-up, then keeps reports at once (even at unload): a test
// that takes the network or the page away waits for that opening (`offlineQueueOpened`), seen by
// an observer on `indexedDB.open` (`watchOfflineQueue`; the real IndexedDB does the work).
import type { Page } from 'playwright-core';

const DATABASE = 'svc-offline';

interface Watched {
  /** The SDK's own opening of its database succeeded in this document. */
  __svcOfflineOpened?: boolean;
  /** `indexedDB.open` unobserved, for the test's own reads. */
  __svcOpenUnwatched?: (name: string) => IDBOpenDBRequest;
}

/**
 * Marks each document of `page` once the SDK has opened its offline database (an init script,
 * before the page's own scripts; the test's own reads through `keptOffline` are not counted).
 */
export const watchOfflineQueue = (page: Page) =>
  page.addInitScript((database) => {
    const watched = window as unknown as Watched;
    const open = indexedDB.open.bind(indexedDB);
    watched.__svcOpenUnwatched = (name) => open(name);
    indexedDB.open = (name: string, version?: number) => {
      const request = open(name, version);
      if (name === database)
        request.addEventListener('success', () => {
          watched.__svcOfflineOpened = true;
        });
      return request;
    };
  }, DATABASE);

/** Waits until the page's SDK has opened its offline database (`watchOfflineQueue` first). */
export async function offlineQueueOpened(page: Page, ms = 15_000): Promise<void> {
  await page.waitForFunction(
    () => (window as unknown as Watched).__svcOfflineOpened === true,
    null,
    {
      timeout: ms,
      polling: 50,
    },
  );
}

/** How many reports the page's origin keeps in its offline queue (IndexedDB). */
export const keptOffline = (page: Page) =>
  page.evaluate(async (database) => {
    // Opened only if it exists: opening makes it (the SDK then adds its store by an upgrade).
    const known = await indexedDB.databases();
    if (!known.some((d) => d.name === database)) return 0;
    const open = (window as unknown as Watched).__svcOpenUnwatched ?? ((n) => indexedDB.open(n));
    return new Promise<number>((resolve) => {
      const request = open(database);
      request.onsuccess = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains('reports')) {
          db.close();
          return resolve(0);
        }
        const count = db.transaction('reports').objectStore('reports').count();
        count.onsuccess = () => {
          db.close(); // never in the way of the SDK's own connection
          resolve(count.result);
        };
      };
      request.onerror = () => resolve(-1);
    });
  }, DATABASE);
