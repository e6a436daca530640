// Node wiring: one process-wide `beforeExit` hook drains every busy client, whichever copy of the
// package created it. Timers are unref'd so an idle or waiting client never keeps a process alive.
import { carrierSlot } from '../core/shared.ts';
import type { Platform, ShutdownHooks } from '../core/types.ts';
import { captureLocation } from '../location/node.ts';
import { describeNode } from '../location/node-frames.ts';

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
