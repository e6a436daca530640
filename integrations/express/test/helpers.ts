import type { SvcClient } from '@svc/runtime';

export interface Call {
  method: string;
  title: string;
  description: unknown;
  tags: unknown;
}

/**
 * A recording client for unit tests of the middleware and process handlers, injected through
 * their `client` parameter; delivery itself is covered end to end against the real service.
 */
export function recordingClient(flushMs = 0): SvcClient & { calls: Call[]; flushes: number } {
  const calls: Call[] = [];
  const state = { flushes: 0 };
  const target = {
    calls,
    get flushes() {
      return state.flushes;
    },
    flush: async () => {
      state.flushes++;
      await new Promise((r) => setTimeout(r, flushMs));
      return {
        sent: 0,
        deduplicated: 0,
        failed: 0,
        dropped: { quota: 0, paused: 0, archived: 0, overflow: 0, sampled: 0, beforeSend: 0 },
      };
    },
  };
  return new Proxy(target, {
    get(t, prop, receiver) {
      if (prop in t) return Reflect.get(t, prop, receiver);
      return (title: string, description?: unknown, tags?: unknown) =>
        calls.push({ method: String(prop), title, description, tags });
    },
  }) as unknown as SvcClient & { calls: Call[]; flushes: number };
}
