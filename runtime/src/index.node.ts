// Node entry: wires the node platform (location capture, shutdown hooks) into the core client.
import { createCoreClient, type SvcClient } from './core/client.ts';
import type { SvcOptions } from './core/options.ts';
import { initSharedWith } from './core/shared.ts';
import type { ClientDeps } from './core/types.ts';
import { detach, nodePlatform, random } from './platform/node.ts';

export * from './exports.ts';

/** Creates a client. Never throws; a misconfigured client warns once and sends nothing. */
export function createClient(options: SvcOptions, deps?: ClientDeps): SvcClient {
  return detach(createCoreClient(nodePlatform, options, { random, ...deps }));
}

/** The process/page-wide client: the first call creates it, later calls return the same one. */
export function initShared(options: SvcOptions, deps?: ClientDeps): SvcClient {
  return initSharedWith(() => createClient(options, deps));
}
