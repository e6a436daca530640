// What a page's origin keeps in the browser SDK's offline queue (IndexedDB), read in the page:
// the runtime's offline tests and the cross-framework matrix's exit cases both count it.
import type { Page } from 'playwright-core';

/** How many reports the page's origin keeps in its offline queue (IndexedDB). */
export const keptOffline = (page: Page) =>
  page.evaluate(async () => {
    // Opened only if it exists: opening makes it (the SDK then adds its store by an upgrade).
    const known = await indexedDB.databases();
    if (!known.some((d) => d.name === 'svc-offline')) return 0;
    return new Promise<number>((resolve) => {
      const open = indexedDB.open('svc-offline');
      open.onsuccess = () => {
        const db = open.result;
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
      open.onerror = () => resolve(-1);
    });
  });
