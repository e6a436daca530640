// Deno entry: wires the Deno platform (the location capture that reads no file, a server's exit
// flush) into the core client.
import { createCoreClient, type SvcClient } from './core/client.ts';
import type { SvcOptions } from './core/options.ts';
import { initSharedWith } from './core/shared.ts';
import type { ClientDeps } from './core/types.ts';
import { denoPlatform, withExitFlush } from './platform/deno.ts';

export * from './exports.ts';

/** Creates a client. Never throws; a misconfigured client warns once and sends nothing. */
export function createClient(options: SvcOptions, deps?: ClientDeps): SvcClient {
  return withExitFlush(createCoreClient(denoPlatform, options, deps));
}

/** The process-wide client: the first call creates it, later calls return the same one. */
export function initShared(options: SvcOptions, deps?: ClientDeps): SvcClient {
  return initSharedWith(() => createClient(options, deps));
}
