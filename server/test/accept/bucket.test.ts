import { describe, expect, it } from 'vitest';
import { rateOf, takeToken } from '../../src/accept/index.ts';
import type { BucketState } from '../../src/accept/index.ts';

// The token bucket as plain arithmetic: no store, no clock but the `now` passed in.
const T0 = Date.UTC(2026, 10, 22, 12, 0, 30);

function drain(capacity: number, now: number, start: BucketState | null = null) {
  let bucket = start;
  let admitted = 0;
  for (;;) {
    const take = takeToken(bucket, capacity, now);
    if (!take.ok) return { bucket, admitted, refused: take };
    bucket = take.bucket;
    admitted += 1;
  }
}

describe('token bucket', () => {
  it('starts full and admits exactly its capacity at one instant', () => {
    for (const capacity of [1, 7, 60, 500]) {
      const { admitted, refused } = drain(capacity, T0);
      expect(admitted).toBe(capacity);
      expect(refused.rate).toEqual({ limit: capacity, remaining: 0 });
    }
  });

  it('counts remaining whole tokens down to 0', () => {
    let bucket: BucketState | null = null;
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      const take = takeToken(bucket, 5, T0);
      if (!take.ok) throw new Error('refused');
      bucket = take.bucket;
      seen.push(take.rate.remaining);
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    expect(rateOf(bucket, 5, T0)).toEqual({ limit: 5, remaining: 0 });
    expect(rateOf(null, 5, T0)).toEqual({ limit: 5, remaining: 5 });
  });

  it('Retry-After is the whole seconds until one token is back: 1 s on Hobby (60/min)', () => {
    expect(drain(60, T0).refused).toMatchObject({ ok: false, retryAfter: 1 });
    expect(drain(2, T0).refused).toMatchObject({ ok: false, retryAfter: 30 });
    expect(drain(500, T0).refused).toMatchObject({ ok: false, retryAfter: 1 });
    // 0.5 s after draining a 2/min bucket: 29.5 s to go, answered as 30.
    const { bucket } = drain(2, T0);
    expect(takeToken(bucket, 2, T0 + 500)).toMatchObject({ ok: false, retryAfter: 30 });
  });

  it('refills continuously at capacity per 60 s, exactly, however finely time is sliced', () => {
    const { bucket } = drain(7, T0);
    // 60,000 checks one millisecond apart: exactly 7 tokens come back over the minute.
    let b = bucket;
    let admitted = 0;
    for (let t = 1; t <= 60_000; t++) {
      const take = takeToken(b, 7, T0 + t);
      if (take.ok) {
        b = take.bucket;
        admitted += 1;
      }
    }
    expect(admitted).toBe(7);
    expect(rateOf(b, 7, T0 + 60_000)).toEqual({ limit: 7, remaining: 0 });
  });

  it('never refills past capacity, and a clock going back refills nothing', () => {
    const { bucket } = drain(3, T0);
    expect(rateOf(bucket, 3, T0 + 3_600_000)).toEqual({ limit: 3, remaining: 3 });
    expect(rateOf(bucket, 3, T0 - 60_000)).toEqual({ limit: 3, remaining: 0 });
    const back = takeToken(bucket, 3, T0 - 60_000);
    expect(back.ok).toBe(false);
  });

  it('a smaller capacity (plan change) caps the tokens kept', () => {
    const half = takeToken(null, 100, T0);
    if (!half.ok) throw new Error('refused');
    expect(rateOf(half.bucket, 10, T0)).toEqual({ limit: 10, remaining: 10 });
  });
});
