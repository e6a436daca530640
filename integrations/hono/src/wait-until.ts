// Delivery before the platform ends the work. A Worker may be stopped once its response is sent
// and what it handed to `waitUntil` has settled, so every flush is chained onto `waitUntil`: the
// request's own flush (after one turn of the event loop, so a rejection nobody handled in the
// request is reported first), and the flush of each report made when work handed to `waitUntil`
// failed, inside that same promise. Each flush ends by its deadline (`flushTimeoutMs`, far under
// the 30 s Workers give `waitUntil`), so the platform never cancels one.
import type { SvcClient } from '@svc/runtime';
import { failureReport, flushWithin, noteRequestReport } from '@svc/runtime/kit';
import type { SvcHonoOptions } from './options.ts';
import { flushTimeout } from './options.ts';

/** The part of a Worker's (or Durable Object's) context Svc uses. */
export interface WaitUntilContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** Where a background task came from: `waitUntil of POST /orders/:id`, and the request's method. */
export interface TaskWhere {
  task: string;
  method?: string;
}

const WATCHED = Symbol.for('svc.hono.waitUntil');

/** One turn of the event loop: the isolate's `unhandledrejection` events of the request are out. */
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Flushes after a turn, within the deadline; never rejects. */
export async function flushSoon(client: SvcClient, options: SvcHonoOptions): Promise<void> {
  await turn();
  await flushWithin(client, flushTimeout(options));
}

/** Hands `flushSoon` to `context.waitUntil`; never throws. */
export function flushOnWaitUntil(
  context: WaitUntilContext | undefined,
  client: SvcClient,
  options: SvcHonoOptions,
): void {
  try {
    context?.waitUntil(flushSoon(client, options));
  } catch {
    // a context that refuses more work: the next request's flush sends it
  }
}

/**
 * `promise`, reporting its rejection as the failure table's `background-error` (where `where()`
 * says) and flushing before it rejects with the same reason: the platform sees what it would have
 * seen without Svc, and the report is delivered inside the promise it waits for.
 */
export function watchTask<T>(
  promise: T,
  client: SvcClient,
  options: SvcHonoOptions,
  where: () => TaskWhere,
): Promise<Awaited<T>> {
  return Promise.resolve(promise).catch(async (error: unknown) => {
    try {
      const card = failureReport('background-error', 'hono', error, where());
      client[options.method ?? card.method](card.title, error, card.tags);
      noteRequestReport(error);
      await flushWithin(client, flushTimeout(options));
    } catch {
      // reporting never changes what the task does
    }
    throw error;
  });
}

/**
 * Makes `context.waitUntil` watch what it is given (`watchTask`), once per context. A context
 * whose method cannot be replaced is left as it is.
 */
export function watchWaitUntil(
  context: WaitUntilContext,
  client: SvcClient,
  options: SvcHonoOptions,
  where: () => TaskWhere,
): void {
  const marked = context as WaitUntilContext & { [WATCHED]?: true };
  if (marked[WATCHED]) return;
  try {
    const original = context.waitUntil;
    Object.defineProperty(context, 'waitUntil', {
      configurable: true,
      writable: true,
      value: (promise: Promise<unknown>) =>
        original.call(context, watchTask(promise, client, options, where)),
    });
    Object.defineProperty(context, WATCHED, { value: true });
  } catch {
    // a frozen context: its tasks' failures stay the platform's
  }
}
