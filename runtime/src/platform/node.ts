// Node wiring: one process-wide `beforeExit` hook drains every busy client, whichever copy of the
// package created it. Timers are unref'd so an idle or waiting client never keeps a process alive.
// A client's calls run in the async context the package was loaded in (`detach`).
import { AsyncResource } from 'node:async_hooks';
import { EXIT, exitFlush, processExitBudget, setExitFlush } from '../core/exit.ts';
import { carrierSlot } from '../core/shared.ts';
import type { Platform, ShutdownHooks } from '../core/port.ts';
import { callSiteLater, captureLocation } from '../location/node.ts';
import { isErrorLike } from '../location/site.ts';
import { describeNode } from '../location/node-frames.ts';
import { createNodeSend } from './node-send.ts';

/**
 * The async context this module was loaded in: normally none (loaded at server start, e.g. from
 * Next's `instrumentation.ts`).
 */
const loadContext = new AsyncResource('svc.client');

/** The hooks of the client being created (`attach` runs inside `createCoreClient`). */
let attached: ShutdownHooks | undefined;

/**
 * Sets the client's exit flush (`EXIT`, for the kit's `flushWithin`) and runs `flush` and the exit
 * flush in the async context the package was loaded in, not in its caller's; the reporting methods
 * run in their caller's, and start nothing asynchronous there (`detached`). The work a report starts
 * (preparing its bytes, signing with the clock, sealing with random bytes, backoff with jitter,
 * sampling) then never runs in the caller's request context, where Next.js with `cacheComponents`
 * records reads of the clock and of random values during a prerender ("unstable value Date.now()
 * while prerendering") and cuts the prerender short.
 */
export function detach<T extends object>(client: T): T {
  const methods = client as Record<string | symbol, unknown>;
  const hooks = attached;
  if (hooks) setExitFlush(client, hooks);
  attached = undefined;
  for (const key of ['flush', EXIT]) {
    const call = methods[key] as ((...args: unknown[]) => unknown) | undefined;
    if (call)
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
      for (const hooks of busy) void exitFlush(hooks, Number.POSITIVE_INFINITY);
    });
    return busy;
  });
}

/**
 * Sampling's random draw, in the package's context (Next records `Math.random()` called in a
 * prerender's): the default of `deps.random` for Node clients.
 */
export const random = () => loadContext.runInAsyncScope(Math.random);

export const nodePlatform: Platform = {
  // An Error's throw site is located in the call, in the package's context (its map may be read
  // from disk: promises); a call site is only captured, and located when the report is built.
  captureLocation: (description, options) =>
    !options.captureLocation
      ? undefined
      : isErrorLike(description)
        ? loadContext.runInAsyncScope(captureLocation, null, description, options)
        : callSiteLater(options),
  // A promise made (and its reaction attached) in the package's context, resolved by the call:
  // `run` runs in that context, and the call creates no async resource in its caller's (a
  // microtask would: with async hooks on, as under an APM or Next, that costs a microsecond).
  schedule(run) {
    let wake: () => void;
    const arm = () =>
      loadContext.runInAsyncScope(() =>
        new Promise<void>((resolve) => (wake = resolve)).then(() => {
          arm();
          run();
        }),
      );
    arm();
    return () => wake();
  },
  describe: describeNode,
  unref: (t) => (t as { unref?: () => void }).unref?.(),
  // Used where node:http is not (./node-send.ts: Bun, Deno). Node's fetch (undici) puts a finished
  // socket back in its pool only after the task in which the response completed; a request started
  // in that task would open another connection. Each request therefore starts one `setImmediate`
  // later (a `setTimeout(0)` costs 1 ms a request). `globalThis.fetch` is looked up at call time.
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
    attached = hooks;
    // node:http unless a fetch function of its own was injected (tests).
    const context = hooks.pipeline.context;
    context.budget = processExitBudget();
    const fetch = context.deps.fetch;
    if (typeof fetch !== 'function' || fetch === nodePlatform.fetch)
      context.send = createNodeSend(context.config.concurrency);
    // Only busy clients are held, so thousands of idle clients cost nothing.
    return (busy) => {
      if (busy) busyClients().add(hooks);
      else busyClients().delete(hooks);
    };
  },
};
