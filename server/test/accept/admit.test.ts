import { describe, expect, it } from 'vitest';
import { type CounterRead, createAcceptance, crossed, utcDay } from '../../src/accept/index.ts';
import { LIMITS, PLANS } from '../../src/generated/limits.gen.ts';

// State, quota and burst in the contract's order (3, 8.2, 8.3), on plain counters.
const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);
const acceptance = createAcceptance({
  plans: PLANS,
  projectQuotaShare: LIMITS.projectQuotaShare,
  variantCap: LIMITS.variantCap,
});
const EMPTY = { tokens: 0, updatedAt: NOW };
const counters = (more: Partial<CounterRead> = {}): CounterRead => ({
  plan: 'hobby',
  projectState: 'active',
  bucket: null,
  accountUsage: 0,
  projectUsage: 0,
  activeProjects: 1,
  ...more,
});

describe('admit', () => {
  it('paused and archived projects drop first, spending nothing', () => {
    for (const state of ['paused', 'archived'] as const) {
      const a = acceptance.admit(counters({ projectState: state, accountUsage: 300 }), NOW);
      expect(a).toEqual({
        decision: { kind: 'dropped', reason: state, rate: { limit: 60, remaining: 60 } },
      });
    }
  });

  it('an exhausted quota drops before the burst limit, and spends no token', () => {
    const a = acceptance.admit(counters({ accountUsage: 300, bucket: EMPTY }), NOW);
    expect(a).toEqual({
      decision: { kind: 'dropped', reason: 'quota', rate: { limit: 60, remaining: 0 } },
    });
    const full = acceptance.admit(counters({ accountUsage: 300 }), NOW);
    expect(full.decision.rate).toEqual({ limit: 60, remaining: 60 });
    expect(full.counters).toBeUndefined();
  });

  it('a project stops at floor(80 %) of the pool only while several projects are active', () => {
    const at = { accountUsage: 240, projectUsage: 240 };
    expect(acceptance.admit(counters({ ...at, activeProjects: 2 }), NOW).decision).toMatchObject({
      kind: 'dropped',
      reason: 'quota',
    });
    expect(acceptance.admit(counters({ ...at, activeProjects: 1 }), NOW).decision.kind).toBe(
      'admitted',
    );
    expect(
      acceptance.admit(counters({ accountUsage: 239, projectUsage: 239, activeProjects: 3 }), NOW)
        .decision.kind,
    ).toBe('admitted');
  });

  it('an empty bucket answers 429 with Retry-After and writes nothing', () => {
    expect(acceptance.admit(counters({ bucket: EMPTY }), NOW)).toEqual({
      decision: { kind: 'rate_limited', rate: { limit: 60, remaining: 0 }, retryAfter: 1 },
    });
  });

  it('admitting spends one token and one event of the UTC day', () => {
    const a = acceptance.admit(counters({ accountUsage: 10, projectUsage: 4 }), NOW);
    expect(a).toEqual({
      decision: { kind: 'admitted', rate: { limit: 60, remaining: 59 } },
      counters: { bucket: { tokens: 59, updatedAt: NOW }, usageDay: utcDay(NOW), warnings: [] },
    });
  });

  it('names each warning threshold the report crosses, once', () => {
    // Hobby: 300 a day, marks at 225, 270, 300.
    const at = (used: number) =>
      acceptance.admit(counters({ accountUsage: used, projectUsage: used }), NOW).counters!
        .warnings;
    expect(at(223)).toEqual([]);
    expect(at(224)).toEqual([{ threshold: 75, day: utcDay(NOW), used: 225, quota: 300 }]);
    expect(at(225)).toEqual([]);
    expect(at(269).map((w) => w.threshold)).toEqual([90]);
    expect(at(299).map((w) => w.threshold)).toEqual([100]);
    // A tiny quota: one event crosses all three marks (ceil(0.75) = ceil(0.9) = 1).
    expect(crossed(0, 1, 1, 0).map((w) => w.threshold)).toEqual([75, 90, 100]);
  });

  it('the quota day is the UTC day', () => {
    expect(utcDay(Date.UTC(2026, 10, 22, 23, 59, 59, 999))).toBe(utcDay(Date.UTC(2026, 10, 22)));
    expect(utcDay(Date.UTC(2026, 10, 23))).toBe(utcDay(Date.UTC(2026, 10, 22)) + 1);
  });
});
