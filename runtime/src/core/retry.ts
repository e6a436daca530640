// How long to wait before the next attempt (contract 8.4). Which failures are retried, how
// `Retry-After` is read, and the backoff base and cap are the generated rule
// (../generated/retry.gen.ts).
import { RETRY } from '../generated/retry.gen.ts';

/**
 * Delay before retry number `retry` (0 for the first retry): Retry-After verbatim when numeric,
 * otherwise exponential with equal jitter from `RETRY.backoffBaseMs`, capped at
 * `RETRY.backoffCapMs`: half the step fixed, half random.
 */
export function backoffMs(
  retry: number,
  retryAfterSeconds: number | undefined,
  random: () => number,
): number {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000;
  const step = Math.min(RETRY.backoffCapMs, RETRY.backoffBaseMs * 2 ** retry);
  return step / 2 + random() * (step / 2);
}
