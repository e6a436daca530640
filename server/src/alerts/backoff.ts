/** When a delivery is tried again. */
export interface RetrySchedule {
  /** The wait after the first failed attempt; each further one doubles it. */
  baseMs: number;
  /** The longest wait. */
  capMs: number;
  /** Attempts at most; the delivery is recorded failed after the last. */
  maxAttempts: number;
}

/**
 * When to try a delivery again after its `attempts`-th failed attempt, or null to give up: the
 * exponential wait (`baseMs` doubled per attempt, at most `capMs`) with equal jitter (half fixed,
 * half random, so receivers coming back are not hit by every instance at once), or the receiver's
 * `Retry-After` when it asks for longer (up to `capMs`). Pure: the clock and randomness are given.
 */
export function retryAt(
  schedule: RetrySchedule,
  attempts: number,
  now: number,
  random: number,
  retryAfterMs?: number,
): number | null {
  if (attempts >= schedule.maxAttempts) return null;
  const full = Math.min(schedule.capMs, schedule.baseMs * 2 ** Math.min(attempts - 1, 30));
  const wait = full / 2 + (full / 2) * random;
  const asked = retryAfterMs === undefined ? 0 : Math.min(schedule.capMs, retryAfterMs);
  return now + Math.ceil(Math.max(wait, asked));
}
