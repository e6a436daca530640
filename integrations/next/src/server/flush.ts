// Serverless flush. A report is queued by the runtime and sent in the background; on a platform
// that freezes or ends the function when the response is sent, that background send would be lost.
// Order of preference: the platform's `waitUntil` (Next's request context, as set by Vercel and
// other adapters), then Next's own `after()`, then awaiting `flush()` with a deadline.

import type { FlushResult, SvcClient } from '@svc/runtime';
import { flushWithin } from '@svc/runtime/kit';

/** Next's request-context carrier: platforms put `{ waitUntil }` there for the current request. */
const REQUEST_CONTEXT = Symbol.for('@next/request-context');

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

export type FlushMode = 'waitUntil' | 'after' | 'awaited';

/** Reads `globalThis[Symbol.for('@next/request-context')].get()?.waitUntil`. */
export function platformWaitUntil(): WaitUntil | undefined {
  const carrier = (globalThis as Record<symbol, unknown>)[REQUEST_CONTEXT] as
    { get?: () => { waitUntil?: WaitUntil } | undefined } | undefined;
  try {
    const waitUntil = carrier?.get?.()?.waitUntil;
    return typeof waitUntil === 'function' ? waitUntil : undefined;
  } catch {
    return undefined;
  }
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

/**
 * Makes sure queued reports leave before the platform may stop the function. Never throws.
 * Returns how the flush was scheduled, and a promise that settles when it is done.
 */
export function scheduleFlush(
  client: SvcClient,
  timeoutMs: number,
  deps: FlushDeps = {},
): { mode: FlushMode; done: Promise<unknown> } {
  const log = deps.log ?? (() => {});
  const task = () => flushWithDeadline(client, timeoutMs, log);
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
      // after() throws outside a request scope (e.g. background revalidation): fall through.
    }
  }
  return { mode: 'awaited', done: task() };
}
