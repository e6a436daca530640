import { describe, expect, it } from 'vitest';
import { report, spawnService } from '../helpers.ts';

// Black-box: burst limit and daily quota (section 8) against a real service process. The fixture
// runs on a fixed clock so no minute or day boundary can fall inside a test.
const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);

async function many(n: number, send: (i: number) => Promise<Response>) {
  const responses = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
  return Promise.all(
    responses.map(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers })),
  );
}

describe('daily quota', () => {
  it('1,000 concurrent requests against a remaining quota of N admit exactly N', async () => {
    const svc = await spawnService({
      now: NOW,
      plans: { team: { burstPerMinute: 100_000, dailyEvents: 400 } },
    });
    try {
      const spent = await many(100, (i) => svc.post(report({ title: `Spend ${i}` }), svc.bearer()));
      expect(spent.every((r) => r.status === 201)).toBe(true);
      const results = await many(1000, (i) =>
        svc.post(report({ title: `Concurrent ${i}` }), svc.bearer()),
      );
      const admitted = results.filter((r) => r.status === 201);
      const dropped = results.filter((r) => r.body.dropped === true);
      expect(admitted).toHaveLength(300);
      expect(dropped).toHaveLength(700);
      expect(dropped[0]).toMatchObject({
        status: 200,
        body: { dropped: true, reason: 'quota', quota_exceeded: true },
      });
      expect(dropped[0]!.body).not.toHaveProperty('deduplicated');
      expect(dropped[0]!.headers.get('retry-after')).toBeNull();
      expect((await svc.cards()).length).toBe(400);
    } finally {
      await svc.close();
    }
  });

  it('no project takes more than 80 % while the account has two active projects', async () => {
    const svc = await spawnService({
      now: NOW,
      secondProject: true,
      plans: { team: { dailyEvents: 10 } },
    });
    try {
      const first = await many(10, (i) => svc.post(report({ title: `P1 ${i}` }), svc.bearer()));
      expect(first.filter((r) => r.status === 201)).toHaveLength(8);
      expect(first.filter((r) => r.body.reason === 'quota')).toHaveLength(2);
      const second = await many(4, (i) =>
        svc.post(report({ title: `P2 ${i}` }), svc.bearer(svc.keys.secondApiKey)),
      );
      expect(second.filter((r) => r.status === 201)).toHaveLength(2);
      // Pausing the second project makes the first the only active one: it may use the whole pool,
      // which is exhausted now.
      await svc.cli('project', 'pause', String(svc.secondProjectId));
      const third = await svc.post(report({ title: 'P1 after' }), svc.bearer());
      expect((await third.json()).reason).toBe('quota');
    } finally {
      await svc.close();
    }
  });

  it('paused and archived projects drop without spending quota', async () => {
    const svc = await spawnService({ now: NOW, plans: { team: { dailyEvents: 3 } } });
    try {
      expect((await svc.cli('project', 'pause', String(svc.projectId))).code).toBe(0);
      const paused = await many(5, (i) => svc.post(report({ title: `Paused ${i}` }), svc.bearer()));
      for (const r of paused) {
        expect([r.status, r.body]).toEqual([
          200,
          { dropped: true, reason: 'paused', quota_exceeded: true },
        ]);
      }
      await svc.cli('project', 'resume', String(svc.projectId));
      const active = await many(4, (i) => svc.post(report({ title: `Active ${i}` }), svc.bearer()));
      expect(active.filter((r) => r.status === 201)).toHaveLength(3);
      await svc.cli('project', 'archive', String(svc.projectId));
      const archived = await svc.post(report({ title: 'Archived' }), svc.bearer());
      expect(await archived.json()).toEqual({
        dropped: true,
        reason: 'archived',
        quota_exceeded: true,
      });
      expect((await svc.cards()).length).toBe(3);
    } finally {
      await svc.close();
    }
  });
});

describe('quota before burst (contract 8.2, 8.3)', () => {
  it('with the quota exhausted, 2x the burst in one minute is all 200 quota drops', async () => {
    const svc = await spawnService({
      now: NOW,
      plan: 'hobby',
      plans: { hobby: { burstPerMinute: 20, dailyEvents: 5 } },
    });
    try {
      const spent = await many(5, (i) => svc.post(report({ title: `Spend ${i}` }), svc.bearer()));
      expect(spent.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      const results = await many(40, (i) => svc.post(report({ title: `Over ${i}` }), svc.bearer()));
      for (const r of results) {
        expect([r.status, r.body]).toEqual([
          200,
          { dropped: true, reason: 'quota', quota_exceeded: true },
        ]);
        expect(r.headers.get('retry-after')).toBeNull();
        // Drops spend no token: 20 - 5 accepted reports.
        expect(r.headers.get('x-ratelimit-remaining')).toBe('15');
      }
    } finally {
      await svc.close();
    }
  });
});

describe('burst limit', () => {
  it('1,000 concurrent requests against a bucket holding N tokens admit exactly N', async () => {
    const svc = await spawnService({
      now: NOW,
      plans: { team: { burstPerMinute: 300, dailyEvents: 100_000 } },
    });
    try {
      const first = await many(100, (i) => svc.post(report({ title: `Drain ${i}` }), svc.bearer()));
      expect(first.every((r) => r.status === 201)).toBe(true);
      // The fixed clock refills nothing: the bucket holds exactly 200 tokens.
      const results = await many(1000, (i) =>
        svc.post(report({ title: `Concurrent ${i % 50}` }), svc.bearer()),
      );
      const admitted = results.filter((r) => r.status === 201 || r.status === 200);
      const limited = results.filter((r) => r.status === 429);
      expect([admitted.length, limited.length]).toEqual([200, 800]);
      // 300 per minute: one token per 200 ms, so Retry-After is 1 s.
      expect(new Set(limited.map((r) => r.headers.get('retry-after')))).toEqual(new Set(['1']));
      const cards = await svc.cards();
      expect(cards.reduce((n, c) => n + c.occurrence_count, 0)).toBe(300);
    } finally {
      await svc.close();
    }
  });

  it('a full bucket admits exactly the per-minute limit under concurrency; 429 carries Retry-After', async () => {
    const svc = await spawnService({
      now: NOW,
      plan: 'hobby',
      plans: { hobby: { burstPerMinute: 50, dailyEvents: 10_000 } },
    });
    try {
      const results = await many(200, (i) =>
        svc.post(report({ title: `Burst ${i}` }), svc.bearer()),
      );
      const ok = results.filter((r) => r.status === 201);
      const limited = results.filter((r) => r.status === 429);
      expect([ok.length, limited.length]).toEqual([50, 150]);
      // The bucket refills 50 tokens per 60 s: one is back after 1.2 s, answered as 2 s.
      expect(limited[0]!.headers.get('retry-after')).toBe('2');
      expect(limited[0]!.headers.get('x-ratelimit-limit')).toBe('50');
      expect(limited[0]!.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(typeof limited[0]!.body.message).toBe('string');
      const remaining = ok
        .map((r) => Number(r.headers.get('x-ratelimit-remaining')))
        .sort((a, b) => a - b);
      expect(remaining).toEqual(Array.from({ length: 50 }, (_, i) => i));
    } finally {
      await svc.close();
    }
  });

  it('uses the plan table by default (hobby 60 per minute)', async () => {
    const svc = await spawnService({ now: NOW, plan: 'hobby' });
    try {
      const r = await svc.post(report({ title: 'Hobby' }), svc.bearer());
      expect(r.headers.get('x-ratelimit-limit')).toBe('60');
      expect(r.headers.get('x-ratelimit-remaining')).toBe('59');
    } finally {
      await svc.close();
    }
  });
});
