import type { BucketState, RateState } from './types.ts';

// The per-project token bucket (contract 8.2). Arithmetic runs in integer units of 1/WINDOW_MS token:
// one millisecond refills exactly `capacity` units, so refill and spending are exact however the
// stored fraction was rounded, and a fixed clock never blurs a count.
const WINDOW_MS = 60_000;

const unitsOf = (bucket: BucketState | null, capacity: number, now: number): number => {
  const full = capacity * WINDOW_MS;
  if (!bucket) return full;
  const elapsed = Math.max(0, Math.floor(now - bucket.updatedAt));
  return Math.min(full, Math.round(bucket.tokens * WINDOW_MS) + elapsed * capacity);
};

const stateOf = (units: number, previous: BucketState | null, now: number): BucketState => ({
  tokens: units / WINDOW_MS,
  updatedAt: previous ? Math.max(previous.updatedAt, now) : now,
});

/** The bucket's answer headers without spending (for answers that are not ingested). */
export function rateOf(bucket: BucketState | null, capacity: number, now: number): RateState {
  return { limit: capacity, remaining: Math.floor(unitsOf(bucket, capacity, now) / WINDOW_MS) };
}

export type Take =
  | { ok: true; bucket: BucketState; rate: RateState }
  | { ok: false; rate: RateState; retryAfter: number };

/** Spends one token, or says in whole seconds (at least 1) when one is back. */
export function takeToken(bucket: BucketState | null, capacity: number, now: number): Take {
  const units = unitsOf(bucket, capacity, now);
  if (units < WINDOW_MS) {
    const waitMs = Math.ceil((WINDOW_MS - units) / capacity);
    return {
      ok: false,
      rate: { limit: capacity, remaining: 0 },
      retryAfter: Math.max(1, Math.ceil(waitMs / 1000)),
    };
  }
  const left = units - WINDOW_MS;
  return {
    ok: true,
    bucket: stateOf(left, bucket, now),
    rate: { limit: capacity, remaining: Math.floor(left / WINDOW_MS) },
  };
}
