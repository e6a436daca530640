import { rateOf, takeToken } from './bucket.ts';
import { WARNING_THRESHOLDS } from '../generated/limits.gen.ts';
import type { AcceptConfig, Admission, CounterRead, QuotaWarning } from './types.ts';

const DAY_MS = 86_400_000;

/** The UTC day (days since the epoch) the daily quota of `now` is counted in (contract 8.3). */
export const utcDay = (now: number): number => Math.floor(now / DAY_MS);

/**
 * Decides on the project's counters alone, in the contract's order: a paused or archived project
 * drops (no quota, no burst); an exhausted account pool or project share drops (contract 8.3; no
 * burst token is spent); then the burst bucket (contract 8.2) admits or answers 429.
 */
export function admit(config: AcceptConfig, read: CounterRead, now: number): Admission {
  const { burstPerMinute, dailyEvents } = config.plans[read.plan];
  if (read.projectState !== 'active') {
    return {
      decision: {
        kind: 'dropped',
        reason: read.projectState,
        rate: rateOf(read.bucket, burstPerMinute, now),
      },
    };
  }
  const shareCap = Math.floor(dailyEvents * config.projectQuotaShare);
  if (
    read.accountUsage >= dailyEvents ||
    (read.activeProjects > 1 && read.projectUsage >= shareCap)
  ) {
    return {
      decision: {
        kind: 'dropped',
        reason: 'quota',
        rate: rateOf(read.bucket, burstPerMinute, now),
      },
    };
  }
  const take = takeToken(read.bucket, burstPerMinute, now);
  if (!take.ok) {
    return { decision: { kind: 'rate_limited', rate: take.rate, retryAfter: take.retryAfter } };
  }
  const day = utcDay(now);
  return {
    decision: { kind: 'admitted', rate: take.rate },
    counters: {
      bucket: take.bucket,
      usageDay: day,
      warnings: crossed(read.accountUsage, read.accountUsage + 1, dailyEvents, day),
    },
  };
}

/** Thresholds whose mark, ceil(quota x pct / 100), lies in (before, after]. */
export function crossed(before: number, after: number, quota: number, day: number): QuotaWarning[] {
  const out: QuotaWarning[] = [];
  for (const threshold of WARNING_THRESHOLDS) {
    const mark = Math.ceil((quota * threshold) / 100);
    if (before < mark && after >= mark) out.push({ threshold, day, used: after, quota });
  }
  return out;
}
