// When a server report leaves. Reports are queued by the runtime and sent in the background, which
// on a long-running server (`next start`, a custom server) is all it takes: nothing waits for the
// service, so delivery never delays an answer. A platform that freezes or ends the function once
// the response is sent would stop that background send, so the flush is handed to what the
// platform offers to outlive the response: its `waitUntil` (Next's request context, as set by
// Vercel, Netlify and other adapters), else Next's own `after()`. Only where neither exists and
// `flushBeforeResponse` is on is the flush awaited, with a deadline, before the response.

import type { FlushResult, SvcClient } from '@svc/runtime';
import { flushWithin } from '@svc/runtime/kit';
import type { ContextRunner } from './outside.ts';

/** The request-context carriers Next reads `waitUntil` from (the second is Vercel's older name). */
const REQUEST_CONTEXTS = [
  Symbol.for('@next/request-context'),
  Symbol.for('@vercel/request-context'),
];

type WaitUntil = (promise: Promise<unknown>) => void;
type After = (task: () => Promise<unknown>) => void;

export interface FlushDeps {
  /** Next's `after` from `next/server`; throws outside a request scope. */
  after?: After;
  /** Returns the platform's `waitUntil`, if any. */
  getWaitUntil?: () => WaitUntil | undefined;
  /** Runs the flush outside Next's request context. @default a pass-through */
  outside?: ContextRunner;
  /** Debug logger; only called when the client runs with `debug`. */
  log?: (message: string) => void;
}

export type FlushMode = 'waitUntil' | 'after' | 'awaited' | 'background';

/** Reads `globalThis[Symbol.for('@next/request-context')].get()?.waitUntil`. */
export function platformWaitUntil(): WaitUntil | undefined {
  for (const key of REQUEST_CONTEXTS) {
    const carrier = (globalThis as Record<symbol, unknown>)[key] as
      { get?: () => { waitUntil?: WaitUntil } | undefined } | undefined;
    try {
      const waitUntil = carrier?.get?.()?.waitUntil;
      if (typeof waitUntil === 'function') return waitUntil;
    } catch {
      // A broken carrier is no carrier.
    }
  }
  return undefined;
}

/** Flushes with the kit's deadline and says (through `log`) when the flush did not complete. */
export async function flushWithDeadline(
  client: SvcClient,
  timeoutMs: number,
  log: (message: string) => void,
): Promise<FlushResult | undefined> {
  const result = await flushWithin(client, timeoutMs);
  if (!result) log(`[svc/next] flush not done within ${timeoutMs} ms; unsent reports stay queued`);
  return result;
}

export interface FlushPolicy {
  /** Deadline of one flush, in milliseconds. */
  timeoutMs: number;
  /** Await the flush before the response when the platform offers neither waitUntil nor after(). */
  beforeResponse: boolean;
}

/**
 * Makes sure queued reports leave before the platform may stop the function, without holding the
 * response where the process lives on. Never throws. Returns how the flush was scheduled, and a
 * promise that settles when it is done (at once for `background`).
 */
export function scheduleFlush(
  client: SvcClient,
  policy: FlushPolicy,
  deps: FlushDeps = {},
): { mode: FlushMode; done: Promise<unknown> } {
  const log = deps.log ?? (() => {});
  const outside = deps.outside ?? ((fn) => fn());
  const task = () => outside(() => flushWithDeadline(client, policy.timeoutMs, log));
  const waitUntil = (deps.getWaitUntil ?? platformWaitUntil)();
  if (waitUntil) {
    const done = task();
    try {
      waitUntil(done);
      return { mode: 'waitUntil', done };
    } catch {
      return { mode: 'awaited', done };
    }
  }
  if (deps.after) {
    let resolveDone!: (value: unknown) => void;
    const done = new Promise((resolve) => {
      resolveDone = resolve;
    });
    try {
      deps.after(() => task().then(resolveDone, resolveDone));
      return { mode: 'after', done };
    } catch {
      // after() throws outside a request scope (route handlers, background revalidation).
    }
  }
  if (policy.beforeResponse) return { mode: 'awaited', done: task() };
  return { mode: 'background', done: Promise.resolve() };
}
