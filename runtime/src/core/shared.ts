// The one global carrier of Svc in a process or page (`Symbol.for('svc.carrier')`): the shared
// client, and the state each integration must keep once per process (installed hooks, options).
// Two copies of this package (ESM and CJS, or two bundles) and the integrations reach the same
// object, so they hand out one client and one queue and install their hooks once.
import type { SvcClient } from './client.ts';

const CARRIER = Symbol.for('svc.carrier');

/** What the carrier holds: the shared client, and one named slot per concern. */
export interface Carrier {
  client?: SvcClient;
  [slot: string]: unknown;
}

/** The carrier, created on first use. */
export function carrier(): Carrier {
  const global = globalThis as unknown as Record<symbol, Carrier | undefined>;
  let found = global[CARRIER];
  if (!found || typeof found !== 'object') {
    found = {};
    global[CARRIER] = found;
  }
  return found;
}

/** The carrier's slot `name`, made by `create` on first use (from any copy of the package). */
export function carrierSlot<T>(name: string, create: () => T): T {
  const all = carrier();
  if (all[name] === undefined) all[name] = create();
  return all[name] as T;
}

/** First call creates the shared client; later calls (from any copy) return the same one. */
export function initSharedWith(create: () => SvcClient): SvcClient {
  const all = carrier();
  if (!all.client) all.client = create();
  return all.client;
}

/** The shared client, if `initShared` was called. */
export function getShared(): SvcClient | undefined {
  return carrier().client;
}
