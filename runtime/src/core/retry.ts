// Which failures are retried, and how long to wait before the next attempt (contract 7 and 8.4).

/** Exponential backoff starts here. */
export const BACKOFF_BASE_MS = 500;
/** And never waits longer than this (a numeric Retry-After is used verbatim, uncapped). */
export const BACKOFF_CAP_MS = 30_000;

/** `status` is undefined for network errors and timeouts. */
export function shouldRetry(status: number | undefined): boolean {
  // Network failure or timeout: the report may not have arrived; a retry deduplicates.
  if (status === undefined) return true;
  // 429: burst limit; the service asks us to come back later.
  if (status === 429) return true;
  // 5xx: server-side failure; transient by contract (a 4xx is never used for transient faults).
  if (status >= 500) return true;
  // Every other status (2xx, 3xx, 4xx incl. 400, 401, 403, 404, 413, 422): never retried.
  return false;
}

/**
 * `Retry-After` as integer seconds; empty or non-numeric gives undefined. The same rule as the
 * generated `parseRetryAfter` (test/core/retry.test.ts compares them), kept here so the start-up
 * bundle does not pull in the generated error classes (no chunk a client loads imports them).
 */
export function retryAfterSeconds(value: string | null | undefined): number | undefined {
  const text = (value ?? '').trim();
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/**
 * Delay before retry number `retry` (0 for the first retry): Retry-After verbatim when numeric,
 * otherwise exponential with equal jitter: half the step fixed, half random.
 */
export function backoffMs(
  retry: number,
  retryAfterSeconds: number | undefined,
  random: () => number,
): number {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000;
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  return step / 2 + random() * (step / 2);
}
