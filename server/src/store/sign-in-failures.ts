import type { BoardStore, ThrottleRule } from './board-types.ts';

/** 0 when a bucket holding `tokens` had one for this failure, else the whole seconds until it has. */
export const waitFor = (tokens: number, rule: ThrottleRule): number =>
  tokens >= 1 ? 0 : Math.max(1, Math.ceil(((1 - tokens) * rule.everyMs) / 1000));

/** A bucket's tokens at `now`, refilled since `at` (none known: full). */
export const refilled = (
  bucket: { tokens: number; at: number } | undefined,
  now: number,
  rule: ThrottleRule,
) =>
  bucket
    ? Math.min(rule.burst, bucket.tokens + Math.max(0, now - bucket.at) / rule.everyMs)
    : rule.burst;

/**
 * Wrong sign-ins counted in this process's memory (SQLite: one service per data dir), bounded:
 * the keys that failed least recently are forgotten first.
 */
export function memorySignInFailures(maxKeys = 10_000): BoardStore['signInFailed'] {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (key, now, rule) => {
    const tokens = refilled(buckets.get(key), now, rule);
    buckets.delete(key);
    buckets.set(key, { tokens: tokens >= 1 ? tokens - 1 : tokens, at: now });
    if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
    return waitFor(tokens, rule);
  };
}
