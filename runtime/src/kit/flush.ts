// Flushing with a deadline, for shutdown and serverless hand-offs: the integrations wait for the
// queue at most `timeoutMs`, whatever the network does, and never see a rejection.
import type { SvcClient } from '../core/client.ts';
import type { FlushResult } from '../core/types.ts';

/**
 * Flushes `client`, giving up after `timeoutMs`. Resolves with the flush result, or `undefined`
 * when the deadline came first or the flush failed; never rejects. Reports still queued at the
 * deadline stay queued.
 */
export function flushWithin(
  client: Pick<SvcClient, 'flush'>,
  timeoutMs: number,
): Promise<FlushResult | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    Promise.resolve()
      .then(() => client.flush({ timeoutMs }))
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
