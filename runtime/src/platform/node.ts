// Node wiring: one process-wide `beforeExit` hook drains every busy client, whichever copy of the
// package created it. Timers are unref'd so an idle or waiting client never keeps a process alive.
// A client's calls run in the async context the package was loaded in (`detach`).
import { AsyncResource } from 'node:async_hooks';
import { carrierSlot } from '../core/shared.ts';
import type { Platform, ShutdownHooks } from '../core/types.ts';
import { captureLocation } from '../location/node.ts';
import { describeNode } from '../location/node-frames.ts';

/**
 * The async context this module was loaded in: normally none (loaded at server start, e.g. from
 * Next's `instrumentation.ts`).
 */
const loadContext = new AsyncResource('svc.client');

/**
 * Runs every call of `client` (the reporting methods, `flush`, the exit flush) in the async context
 * the package was loaded in, not in its caller's. The work a report starts (preparing its bytes,
 * signing with the clock, sealing with random bytes, backoff with jitter, sampling) then never runs
 * in the caller's request context, where Next.js with `cacheComponents` records reads of the clock
 * and of random values during a prerender ("unstable value Date.now() while prerendering") and cuts
 * the prerender short.
 */
export function detach<T extends object>(client: T): T {
  const methods = client as Record<string | symbol, unknown>;
  for (const key of Reflect.ownKeys(methods)) {
    const method = methods[key];
    if (typeof method !== 'function') continue;
    const call = method as (...args: unknown[]) => unknown;
    methods[key] = (...args: unknown[]) => loadContext.runInAsyncScope(call, client, ...args);
  }
  return client;
}

/** Busy clients of every copy of the package, held in the global carrier's `exit` slot. */
function busyClients(): Set<ShutdownHooks> {
  return carrierSlot('exit', () => {
    const busy = new Set<ShutdownHooks>();
    // Fires when the event loop empties; draining starts requests, which keep the process alive
    // until they finish, then the hook fires again with nothing left to do.
    process.on('beforeExit', () => {
      for (const hooks of busy) void hooks.drain();
    });
    return busy;
  });
}

export const nodePlatform: Platform = {
  captureLocation,
  describe: describeNode,
  unref: (t) => (t as { unref?: () => void }).unref?.(),
  // Node's fetch (undici) puts a finished socket back in its pool only after the task in which
  // the response completed; a request started in that task (the queue starts the next one at
  // once) would open another connection: 4 sockets for 10 reports at concurrency 2, not 2. Each
  // request therefore starts one `setImmediate` later (a `setTimeout(0)` costs 1 ms a request).
  // `globalThis.fetch` is looked up at call time.
  fetch: (input, init) =>
    new Promise<void>((resolve) => setImmediate(resolve)).then(() => fetch(input, init)),
  envServiceUrl() {
    try {
      return process.env.SERVICE_URL;
    } catch {
      return undefined; // an environment that throws on access counts as unset
    }
  },
  attach(hooks) {
    // Only busy clients are held, so thousands of idle clients cost nothing.
    return (busy) => {
      if (busy) busyClients().add(hooks);
      else busyClients().delete(hooks);
    };
  },
};
