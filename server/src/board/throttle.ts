import { addressKey } from '../http/connections.ts';

// Failed sign-ins per client address (an IPv4 address, an IPv6 /64): a bucket of `burst` attempts
// that refills at one per `everyMs`. While it is empty the board answers 429 with Retry-After
// before it looks at the token, so guessing admin tokens runs at 10 a minute per address, not the
// thousands a second the hashing allows. Successful sign-ins spend nothing. The map is bounded
// (the oldest addresses are forgotten first).

export interface SignInThrottle {
  /** Whole seconds before `address` may try again; 0 when it may now. */
  retryAfter(address: string | undefined): number;
  /** A wrong token from `address`. */
  failed(address: string | undefined): void;
}

export function createSignInThrottle(opts: {
  now: () => number;
  /** @default 10 */
  burst?: number;
  /** @default 6000 (10 a minute) */
  everyMs?: number;
  /** @default 10000 */
  maxAddresses?: number;
}): SignInThrottle {
  const burst = opts.burst ?? 10;
  const everyMs = opts.everyMs ?? 6000;
  const maxAddresses = opts.maxAddresses ?? 10_000;
  const buckets = new Map<string, { tokens: number; at: number }>();

  const current = (key: string) => {
    const bucket = buckets.get(key);
    if (!bucket) return burst;
    return Math.min(burst, bucket.tokens + (opts.now() - bucket.at) / everyMs);
  };
  return {
    retryAfter(address) {
      const tokens = current(addressKey(address));
      return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * everyMs) / 1000);
    },
    failed(address) {
      const key = addressKey(address);
      const tokens = Math.max(0, current(key) - 1);
      buckets.delete(key);
      buckets.set(key, { tokens, at: opts.now() });
      if (buckets.size > maxAddresses) buckets.delete(buckets.keys().next().value!);
    },
  };
}
