// The shared client lives in a global carrier, so two copies of this package (ESM and CJS, or two
// bundles) hand out one client and one queue.
import type { SvcClient } from './client.ts';

const CARRIER = Symbol.for('svc.carrier');

interface Carrier {
  client?: SvcClient;
}

function carrier(): Carrier {
  const g = globalThis as unknown as Record<symbol, Carrier | undefined>;
  let c = g[CARRIER];
  if (!c || typeof c !== 'object') {
    c = {};
    g[CARRIER] = c;
  }
  return c;
}

/** First call creates the shared client; later calls (from any copy) return the same one. */
export function initSharedWith(create: () => SvcClient): SvcClient {
  const c = carrier();
  if (!c.client) c.client = create();
  return c.client;
}

/** The shared client, if `initShared` was called. */
export function getShared(): SvcClient | undefined {
  return carrier().client;
}
