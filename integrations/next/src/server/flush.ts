// When a server report leaves. Reports are queued by the runtime and sent in the background, which
// on a long-running server (`next start`, a custom server) is all it takes: nothing waits for the
// service, so delivery never delays an answer, and the queue retries as long as the process
// lives. A platform that freezes or ends the function once the response is sent would stop that
// background send, so the flush is handed to what it offers to outlive the response: its
// `waitUntil` (Next's request context, as set by Vercel, Netlify, OpenNext and other adapters), or
// in the edge runtime Next's `after()` (which Next maps to the platform's waitUntil). Only with
// `flushBeforeResponse` and neither of them is the flush awaited, with a deadline, before the
// response.

import type { FlushResult, SvcClient } from '@svc/runtime';
import { flushWithin } from '@svc/runtime/kit';

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

/**
 * Flushes with the kit's deadline (what is not delivered by then is given up, with the runtime's
 * one warning: the function is about to stop) and says (through `log`) when it did not complete.
 */
export async function flushWithDeadline(
  client: SvcClient,
  timeoutMs: number,
  log: (message: string) => void,
): Promise<FlushResult | undefined> {
  const result = await flushWithin(client, timeoutMs);
  if (!result) log(`[svc/next] flush not done within ${timeoutMs} ms`);
  return result;
}

export interface FlushPolicy {
  /** Deadline of one flush, in milliseconds. */
  timeoutMs: number;
  /** Await the flush before the response when the platform offers no `waitUntil`. */
  beforeResponse: boolean;
  /** The edge runtime: its function ends with the response, and `after()` outlives it. */
  edge: boolean;
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
  const task = () => flushWithDeadline(client, policy.timeoutMs, log);
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
  if (policy.edge && deps.after) {
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
