// Node wiring: one process-wide `beforeExit` hook drains every busy client, whichever copy of the
// package created it. Timers are unref'd so an idle or waiting client never keeps a process alive.
import { describe } from '../core/describe.ts';
import type { Platform, ShutdownHooks } from '../core/types.ts';
import { captureLocation } from '../location/node.ts';

const REGISTRY = Symbol.for('svc.exit');

interface Registry {
  busy: Set<ShutdownHooks>;
}

function registry(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>;
  let r = g[REGISTRY];
  if (!r) {
    const reg: Registry = { busy: new Set() };
    r = reg;
    g[REGISTRY] = reg;
    // Fires when the event loop empties; draining starts requests, which keep the process alive
    // until they finish, then the hook fires again with nothing left to do.
    process.on('beforeExit', () => {
      for (const hooks of reg.busy) void hooks.drain();
    });
  }
  return r;
}

export const nodePlatform: Platform = {
  captureLocation,
  describe,
  sourceMapsDefault: true,
  unref: (t) => (t as { unref?: () => void }).unref?.(),
  envServiceUrl: () => process.env.SERVICE_URL,
  attach(hooks) {
    // Only busy clients are held, so thousands of idle clients cost nothing.
    return (busy) => {
      if (busy) registry().busy.add(hooks);
      else registry().busy.delete(hooks);
    };
  },
};
