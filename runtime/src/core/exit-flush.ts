// The exit flush (part of the lazy transport chunk): delivery while a host waits to stop (Node's
// `beforeExit`, the integrations' signal, crash and close hooks, a serverless hand-off through the
// kit's `flushWithin`). Delivery ends at the caller's deadline and within the budget: while the
// service does not answer, exit flushes hold the host `timeoutMs` + EXIT_SLACK_MS in all, however
// many there are, until an answer proves the service back (./transport.ts resets the budget). At
// exit a report that meets no answer is not retried (a refused service will not be up in time):
// every delivery gives up with it. One warning names the reports given up and the time waited.
import { settle } from './link.ts';
import { EXIT_GAVE_UP } from './messages.ts';
import type { ExitState, TransportContext } from './send.ts';

/** Beyond one attempt's `timeoutMs`: what exit flushes may hold a host for while it is down. */
export const EXIT_SLACK_MS = 500;

/** Wakes the backoff waits in progress (their deliveries look at the exit state next). */
function wake(ctx: TransportContext): void {
  for (const done of [...(ctx.sleeping ?? [])]) done();
}

function startExit(ctx: TransportContext): [ExitState, () => void] {
  const stop = new AbortController();
  let over!: () => void;
  const exit: ExitState = {
    stop: stop.signal,
    gaveUp: 0,
    over: new Promise((resolve) => (over = resolve)),
    end() {
      if (stop.signal.aborted) return;
      stop.abort();
      for (const abort of [...(ctx.attempts ?? [])]) abort();
      wake(ctx);
      if (ctx.link) settle(ctx.link, false);
    },
  };
  ctx.exit = exit;
  return [exit, over];
}

/**
 * Flushes for the host's exit within `timeoutMs` and what is left of the budget, whatever is
 * queued and whatever the network does: at that deadline every attempt, wait and queued report is
 * given up (counted `failed`), with one warning naming the address, the count and the time held.
 * One exit flush at a time per client: a second waits for the first. Resolves with `flush()`'s
 * result.
 */
export async function exitWithin<T>(
  ctx: TransportContext,
  timeoutMs: number,
  flush: () => Promise<T>,
): Promise<T> {
  while (ctx.exit) await ctx.exit.over;
  ctx.budget ??= { spentMs: 0 };
  const budget = ctx.budget;
  const started = Date.now();
  const [exit, over] = startExit(ctx);
  // A probe sleeping after a network failure tries once more now, not after its backoff.
  if (ctx.link?.down) wake(ctx);
  const deadline = Math.min(timeoutMs, ctx.config.timeoutMs + EXIT_SLACK_MS - budget.spentMs);
  // Nothing left of the budget: nothing is attempted, what is queued is given up at once.
  if (!(deadline > 0)) exit.end();
  const timer = setTimeout(exit.end, Math.max(0, deadline));
  try {
    return await flush();
  } finally {
    clearTimeout(timer);
    const held = Date.now() - started;
    // No answer proved the service back: this wait counts against the budget.
    if (ctx.link?.down) budget.spentMs += held;
    if (exit.gaveUp) {
      ctx.debug.warn(EXIT_GAVE_UP, exit.gaveUp, ctx.url, ctx.lastFailure ?? 'no answer yet', held);
      await ctx.debug.idle();
    }
    ctx.exit = undefined;
    over();
  }
}
