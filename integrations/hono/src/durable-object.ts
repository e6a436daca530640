// Durable Objects: `export const Counter = instrumentDurableObject(CounterObject)`. An object's
// alarm that fails is the failure table's `background-error` (`Error: ... (Counter alarm)`),
// reported and flushed before the alarm ends (then it fails as before, and the platform retries
// it: each failed attempt counts on the one card). Work handed to the object's `ctx.waitUntil` is
// watched as a request's is, and reports made inside its methods (`getShared()` of
// `@svc/runtime`) are flushed after each call. An error a method throws to its caller (`fetch`,
// RPC) is the caller's: the route awaiting it reports it, so one fault makes one card.
import { flushWithin } from '@svc/runtime/kit';
import type { SvcClient } from '@svc/runtime';
import { sharedClient } from './client.ts';
import { installCrashHandlers } from './crashes.ts';
import { flushTimeout, type SvcHonoOptions } from './options.ts';
import {
  flushOnWaitUntil,
  type WaitUntilContext,
  watchTask,
  watchWaitUntil,
} from './wait-until.ts';

type ObjectClass = abstract new (...args: any[]) => object;

interface Instrumented {
  svcClient?: SvcClient;
  svcContext?: WaitUntilContext;
}

/** The Durable Object's context, when it has a usable `waitUntil`. */
function waitUntilOf(ctx: unknown): WaitUntilContext | undefined {
  const context = ctx as WaitUntilContext | undefined;
  return typeof context?.waitUntil === 'function' ? context : undefined;
}

/** `method` of an instance of `name`, reporting an alarm's failure and flushing after each call. */
function instrumented(
  name: string,
  key: string,
  method: (...args: unknown[]) => unknown,
  options: SvcHonoOptions,
) {
  return function (this: Instrumented, ...args: unknown[]): unknown {
    const client = this.svcClient;
    if (!client) return method.apply(this, args);
    if (key === 'alarm') {
      // The alarm's own promise: reported, then flushed before the alarm ends either way.
      const run = Promise.resolve().then(() => method.apply(this, args));
      const watched = watchTask(run, client, options, () => ({ task: `${name} alarm` }));
      return watched.finally(() => flushWithin(client, flushTimeout(options)));
    }
    const flush = () => flushOnWaitUntil(this.svcContext, client, options);
    let result: unknown;
    try {
      result = method.apply(this, args);
    } catch (error) {
      flush();
      throw error;
    }
    if (typeof (result as PromiseLike<unknown> | undefined)?.then !== 'function') {
      flush();
      return result;
    }
    return Promise.resolve(result).finally(flush);
  };
}

/**
 * A subclass of your Durable Object class that reports its failures; export it under the binding's
 * class name. Reads its settings from the object's `env` (the same `SERVICE_*` bindings).
 */
export function instrumentDurableObject<T extends ObjectClass>(
  Base: T,
  options: SvcHonoOptions = {},
): T {
  const name = Base.name || 'DurableObject';
  const Derived = class extends (Base as any) {
    constructor(...args: any[]) {
      super(...args);
      try {
        const [ctx, env] = args;
        const client = sharedClient(options, env);
        installCrashHandlers(client, options);
        const self = this as Instrumented;
        self.svcClient = client;
        self.svcContext = waitUntilOf(ctx);
        if (self.svcContext)
          watchWaitUntil(self.svcContext, client, options, () => ({ task: `${name} waitUntil` }));
      } catch {
        // the object works without Svc
      }
    }
  };
  for (const key of Object.getOwnPropertyNames(Base.prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(Base.prototype, key);
    if (key === 'constructor' || typeof descriptor?.value !== 'function') continue;
    Object.defineProperty(Derived.prototype, key, {
      ...descriptor,
      value: instrumented(name, key, descriptor.value, options),
    });
  }
  Object.defineProperty(Derived, 'name', { value: name });
  return Derived as unknown as T;
}
