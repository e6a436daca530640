// Flushing with a deadline, for shutdown and serverless hand-offs: the integrations wait for the
// queue at most `timeoutMs`, whatever the network does, and never see a rejection.
import type { SvcClient } from '../core/client.ts';
import { EXIT } from '../core/exit.ts';
import type { FlushResult } from '../core/types.ts';

/** Time given to a client's exit flush past `timeoutMs` to write its one warning. */
const WARNING_GRACE_MS = 1000;

type ExitFlush = (timeoutMs: number) => Promise<FlushResult>;

/**
 * Flushes `client` for a shutdown: delivery ends within `timeoutMs` (and the client's own
 * `timeoutMs` option + 2 s): what is not delivered by then is given up (counted `failed`), with
 * one warning naming the service address. Resolves with the flush result, or `undefined` when the
 * deadline came first or the flush failed; never rejects. A client without the exit flush (another
 * implementation of `flush`) is flushed with `{ timeoutMs }` and left as it is at the deadline.
 */
export function flushWithin(
  client: Pick<SvcClient, 'flush'>,
  timeoutMs: number,
): Promise<FlushResult | undefined> {
  return new Promise((resolve) => {
    // Its own property: a stand-in client (a Proxy answering every name) is flushed.
    const exit = Object.hasOwn(client, EXIT)
      ? (client as unknown as Record<symbol, ExitFlush | undefined>)[EXIT]
      : undefined;
    // The exit flush ends by itself at its deadline; this timer only guards against a hang.
    const grace = typeof exit === 'function' ? WARNING_GRACE_MS : 0;
    const timer = setTimeout(() => resolve(undefined), timeoutMs + grace);
    Promise.resolve()
      .then(() => (typeof exit === 'function' ? exit(timeoutMs) : client.flush({ timeoutMs })))
      .then(
        (result) => result,
        () => undefined,
      )
      .then((result) => {
        clearTimeout(timer);
        resolve(result);
      });
  });
}
