// The exit flush of a server client, set on the client under `EXIT` by the server platforms (Node,
// Deno), so that the kit's `flushWithin` reaches it from any copy of the package:
// `(timeoutMs: number) => Promise<FlushResult>`. Browsers have none (they send at unload).
import type { ShutdownHooks } from './port.ts';
import type { ExitBudget } from './send.ts';
import { carrierSlot } from './shared.ts';
import type { FlushResult } from './types.ts';

export const EXIT = Symbol.for('svc.exit');

/**
 * The exit flush of a client: delivery ends within `timeoutMs` and what is left of the process's
 * exit budget, whatever is queued; what is left is given up, with one warning (the transport's
 * `exitWithin`). Resolves with the flush result.
 */
export function exitFlush(hooks: ShutdownHooks, timeoutMs: number): Promise<FlushResult> {
  const { pipeline, drain } = hooks;
  return pipeline
    .load()
    .then((transport) => transport.exitWithin(pipeline.context, timeoutMs, drain), drain);
}

/** One exit budget per process, whichever clients and copies of the package flush at exit. */
export function processExitBudget(): ExitBudget {
  return carrierSlot<ExitBudget>('exitBudget', () => ({ spentMs: 0 }));
}

/** Sets `client`'s exit flush (`EXIT`) on the hooks its platform was handed. */
export function setExitFlush(client: object, hooks: ShutdownHooks): void {
  (client as Record<symbol, unknown>)[EXIT] = (timeoutMs: number) => exitFlush(hooks, timeoutMs);
}
