import { describe, expect, it } from 'vitest';
import {
  type BatchView,
  type CardState,
  createBatch,
  descriptionHash,
  PENDING_BASE,
  type StoredCounters,
  type TaskReport,
  utcDay,
  type VariantState,
  variantIdentity,
} from '../../src/accept/index.ts';
import type { AuthKey } from '../../src/domain/types.ts';
import { PLANS } from '../../src/generated/limits.gen.ts';

// A batch of reports decided together over a store's committed state, on plain values: what each
// report gets and what the batch tells the store to write, each row once.
const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);
const DAY = utcDay(NOW);
const key: AuthKey = {
  id: 1,
  kind: 'publishable',
  projectId: 10,
  accountId: 100,
  plan: 'team',
  secretHash: null,
  origins: [],
};
const report = (more: Partial<TaskReport> = {}): TaskReport => ({
  severity: 'major',
  priority: 'high',
  title: 'Boom',
  description: null,
  tags: [],
  file_name: null,
  line_number: null,
  ...more,
});
const stored = (more: Partial<CardState> = {}): CardState => ({
  id: 7,
  status: 'todo',
  regressions: 0,
  tags: ['a'],
  occurrenceCount: 4,
  lastSeenAt: NOW - 60_000,
  usageDay: DAY,
  usageCount: 2,
  resolvedEnv: null,
  resolvedRelease: null,
  ...more,
});

/** A store with one project: its counters, cards by title and description, variants. */
function view(
  state: {
    counters?: Partial<StoredCounters>;
    cards?: { card: CardState; title: string; description?: string }[];
    variants?: Record<number, (VariantState & { identity: string })[]>;
    /** Release -> its place in the order first seen. */
    releases?: Record<string, number>;
  } = {},
) {
  const asked: string[] = [];
  const cards = state.cards ?? [];
  const v: BatchView = {
    counters: (accountId, projectId, day) => {
      asked.push(`counters ${accountId} ${projectId} ${day}`);
      return {
        projectState: 'active',
        bucket: null,
        accountUsage: 0,
        projectUsage: 0,
        activeProjects: 1,
        ...state.counters,
      };
    },
    cardByTitle: (_p, title) => {
      asked.push(`title ${title}`);
      return cards.find((c) => c.title === title)?.card ?? null;
    },
    cardByDescription: (_p, hash, description) => {
      asked.push(`description ${hash.slice(0, 6)}`);
      return cards.find((c) => c.description === description)?.card ?? null;
    },
    variantId: (cardId, identity) =>
      state.variants?.[cardId]?.find((x) => x.identity === identity)?.id ?? null,
    namedCount: (cardId) => state.variants?.[cardId]?.length ?? 0,
    namedVariants: (cardId) => state.variants?.[cardId] ?? [],
    releaseSeen: (_p, name) => {
      asked.push(`release ${name}`);
      return state.releases?.[name] ?? null;
    },
  };
  return { view: v, asked };
}
const config = { plans: PLANS, projectQuotaShare: 0.8, variantCap: 3, tagsPerCard: 10 };

describe('a batch of reports', () => {
  it('folds every repeat into one stored card and writes it once, asking the store once', () => {
    const s = view({ cards: [{ card: stored(), title: 'Boom' }] });
    const batch = createBatch(config, s.view);
    const results = [1, 2, 3].map((i) => batch.decide(key, report({ tags: [`t${i}`] }), NOW + i));
    expect(results.map((r) => [r.decision.kind, r.cardRef, r.card?.occurrenceCount])).toEqual([
      ['deduplicated', 7, 5],
      ['deduplicated', 7, 6],
      ['deduplicated', 7, 7],
    ]);
    const w = batch.writes();
    expect(w.cardUpdates).toEqual([
      {
        id: 7,
        occurrenceCount: 7,
        lastSeenAt: NOW + 3,
        tags: ['a', 't1', 't2', 't3'],
        usageDay: DAY,
        usageCount: 5,
      },
    ]);
    expect(w.usage).toEqual([[100, DAY, 10, 3]]);
    expect(w.cardInserts).toEqual([]);
    expect(w.variantInserts.map((x) => [x.cardRef, x.count])).toEqual([[7, 3]]);
    expect(s.asked).toEqual([`counters 100 10 ${DAY}`, 'title Boom']);
  });

  it('a card made by the batch is found by its title and by its description', () => {
    const batch = createBatch(config, view().view);
    const first = batch.decide(key, report({ title: 'New', description: 'body' }), NOW);
    const byTitle = batch.decide(key, report({ title: 'New' }), NOW);
    const byDescription = batch.decide(key, report({ title: 'Other', description: 'body' }), NOW);
    expect(first.decision.kind).toBe('created');
    expect(first.cardRef).toBeGreaterThanOrEqual(PENDING_BASE);
    expect([byTitle, byDescription].map((r) => [r.decision.kind, r.cardRef])).toEqual([
      ['deduplicated', first.cardRef],
      ['deduplicated', first.cardRef],
    ]);
    const w = batch.writes();
    expect(w.cardInserts).toHaveLength(1);
    expect(w.cardInserts[0]!.card).toMatchObject({
      title: 'New',
      occurrenceCount: 3,
      descriptionHash: descriptionHash({ description: 'body' }),
    });
    expect(w.cardUpdates).toEqual([]);
  });

  it('a title match wins over a description match', () => {
    const s = view({
      cards: [
        { card: stored({ id: 1 }), title: 'T' },
        { card: stored({ id: 2 }), title: 'U', description: 'D' },
      ],
    });
    const batch = createBatch(config, s.view);
    expect(batch.decide(key, report({ title: 'T', description: 'D' }), NOW).cardRef).toBe(1);
    expect(batch.decide(key, report({ title: 'V', description: 'D' }), NOW).cardRef).toBe(2);
  });

  it('quota and burst are spent report by report: the batch admits exactly what is left', () => {
    const batch = createBatch(
      { ...config, plans: { ...PLANS, team: { burstPerMinute: 5, dailyEvents: 3 } } },
      view({ counters: { accountUsage: 1, projectUsage: 1 } }).view,
    );
    const kinds = Array.from(
      { length: 4 },
      (_, i) => batch.decide(key, report({ title: `R${i}` }), NOW).decision,
    ).map((d) => (d.kind === 'dropped' ? d.reason : d.kind));
    expect(kinds).toEqual(['created', 'created', 'quota', 'quota']);
    const w = batch.writes();
    expect(w.usage).toEqual([[100, DAY, 10, 2]]);
    // Two tokens spent of five; quota drops spend none.
    expect(w.buckets.get(10)).toEqual({ tokens: 3, updatedAt: NOW });
    // The second report reaches the pool (3): every threshold mark (ceil of 75, 90, 100 % of 3).
    expect(w.warnings.map((x) => x.warnings.map((y) => y.threshold))).toEqual([[75, 90, 100]]);
  });

  it('past the variant cap the least recently seen fold into Other variants, new ones included', () => {
    const old = (id: number, last: number) => ({
      id,
      identity: `old${id}`,
      count: 2,
      firstSeenAt: NOW - 10_000,
      lastSeenAt: last,
    });
    const s = view({
      cards: [{ card: stored({ id: 7 }), title: 'Boom' }],
      variants: { 7: [old(71, NOW - 3000), old(72, NOW - 1000), old(73, NOW - 2000)] },
    });
    const batch = createBatch(config, s.view);
    // Two novel payloads: the cap (3) is passed twice; 71, then 73 are the least recently seen.
    batch.decide(key, report({ file_name: 'a.ts' }), NOW);
    batch.decide(key, report({ file_name: 'b.ts' }), NOW + 1);
    const w = batch.writes();
    expect(w.variantRemovals).toEqual([71, 73]);
    expect(w.variantFolds).toEqual([
      { cardRef: 7, count: 4, firstSeenAt: NOW - 10_000, lastSeenAt: NOW - 2000 },
    ]);
    expect(w.variantInserts.map((x) => x.sighting.fileName)).toEqual(['a.ts', 'b.ts']);
    expect(batch.namedAfter(7)).toBe(3);
  });

  it('variants the batch makes and prunes are never written, their counts are folded', () => {
    const batch = createBatch({ ...config, variantCap: 1 }, view().view);
    for (const file of ['a.ts', 'b.ts', 'a.ts', 'c.ts']) {
      batch.decide(key, report({ title: 'New', file_name: file }), NOW);
    }
    const w = batch.writes();
    expect(w.variantInserts.map((x) => [x.sighting.fileName, x.count])).toEqual([['c.ts', 1]]);
    expect(w.variantFolds.map((f) => f.count)).toEqual([3]);
    expect(w.cardInserts[0]!.card.occurrenceCount).toBe(4);
    expect(variantIdentity(report({ title: 'New', file_name: 'c.ts' }))).toBe(
      w.variantInserts[0]!.sighting.identity,
    );
  });

  it('a done card reported again regresses once, with a notice', () => {
    const batch = createBatch(
      config,
      view({ cards: [{ card: stored({ status: 'done' }), title: 'Boom' }] }).view,
    );
    const a = batch.decide(key, report({ tags: ['release:2.0'] }), NOW);
    const b = batch.decide(key, report(), NOW);
    expect([a.card?.status, b.card?.status]).toEqual(['todo', 'todo']);
    const w = batch.writes();
    expect(w.regressions).toEqual([
      {
        id: 7,
        regression: {
          from: 'done',
          to: 'todo',
          regressions: 1,
          at: NOW,
          release: '2.0',
          environment: 'production',
          ordering: null,
        },
      },
    ]);
    expect(w.notices.map((n) => [n.cardRef, n.notice.kind])).toEqual([[7, 'regression']]);
  });

  it('counts each card per environment (no env tag: production) and lists releases once', () => {
    const s = view({ cards: [{ card: stored(), title: 'Boom' }] });
    const batch = createBatch(config, s.view);
    batch.decide(key, report({ tags: ['env:development', 'release:1.0'] }), NOW + 1);
    batch.decide(key, report({ tags: ['release:1.0'] }), NOW + 2);
    batch.decide(key, report({ tags: ['env:development', 'release:1.1'] }), NOW + 3);
    batch.decide(key, report({ title: 'New', tags: ['env:staging'] }), NOW + 4);
    const w = batch.writes();
    expect(
      w.envCounts.map((e) => [e.cardRef, e.env, e.count, e.firstSeenAt, e.lastSeenAt]),
    ).toEqual([
      [7, 'development', 2, NOW + 1, NOW + 3],
      [7, 'production', 1, NOW + 2, NOW + 2],
      [PENDING_BASE, 'staging', 1, NOW + 4, NOW + 4],
    ]);
    expect(w.releases).toEqual([
      { projectId: 10, name: '1.0', at: NOW + 1 },
      { projectId: 10, name: '1.1', at: NOW + 3 },
    ]);
    // Nothing was resolved in a release: no release's place was asked for.
    expect(s.asked.filter((a) => a.startsWith('release'))).toEqual([]);
  });

  it('a card resolved in production ignores development, and regresses from production', () => {
    const done = stored({ status: 'done', resolvedEnv: 'production' });
    const batch = createBatch(config, view({ cards: [{ card: done, title: 'Boom' }] }).view);
    const dev = batch.decide(key, report({ tags: ['env:development'] }), NOW);
    expect([dev.card?.status, dev.card?.occurrenceCount]).toEqual(['done', 5]);
    const prod = batch.decide(key, report({ tags: ['env:production'] }), NOW + 1);
    expect(prod.card?.status).toBe('todo');
    const w = batch.writes();
    expect(w.regressions.map((r) => [r.regression.environment, r.regression.at])).toEqual([
      ['production', NOW + 1],
    ]);
    expect(w.cardUpdates[0]!.occurrenceCount).toBe(6);
  });

  it('a card resolved in a release regresses only from it or a newer one, in first-sight order', () => {
    const done = stored({ status: 'done', resolvedEnv: 'production', resolvedRelease: 'build-20' });
    const s = view({
      cards: [{ card: done, title: 'Boom' }],
      releases: { 'build-19': 10, 'build-20': 11 },
    });
    const batch = createBatch(config, s.view);
    const old = batch.decide(key, report({ tags: ['release:build-19'] }), NOW);
    const none = batch.decide(key, report(), NOW + 1);
    expect([old.card?.status, none.card?.status]).toEqual(['done', 'done']);
    // Never seen before: first seen now, after build-20.
    const next = batch.decide(key, report({ tags: ['release:build-21'] }), NOW + 2);
    expect(next.card?.status).toBe('todo');
    expect(batch.writes().regressions[0]!.regression).toMatchObject({
      release: 'build-21',
      ordering: 'first_sight',
    });
    expect(s.asked).toContain('release build-20');
  });

  it('semver names compare by precedence, whatever the order they were first seen in', () => {
    const resolved = (release: string) =>
      stored({ status: 'done', resolvedEnv: null, resolvedRelease: release });
    const regressesFrom = (resolvedIn: string, reported: string) => {
      const s = view({
        cards: [{ card: resolved(resolvedIn), title: 'Boom' }],
        releases: { [reported]: 1, [resolvedIn]: 2 },
      });
      const d = createBatch(config, s.view).decide(
        key,
        report({ tags: [`release:${reported}`] }),
        NOW,
      );
      return d.card?.status === 'todo';
    };
    expect(regressesFrom('2.4.0', '2.4.1')).toBe(true);
    expect(regressesFrom('2.4.0', 'v2.10.0')).toBe(true);
    expect(regressesFrom('2.4.0', '2.4.0-rc.1')).toBe(false);
    expect(regressesFrom('2.4.0', '2.3.9')).toBe(false);
    expect(regressesFrom('2.4.0', '2.4.0')).toBe(true);
  });

  it('counts admitted reports per card, environment and UTC minute', () => {
    const batch = createBatch(config, view({ cards: [{ card: stored(), title: 'Boom' }] }).view);
    const minute = Math.floor(NOW / 60_000);
    batch.decide(key, report({ tags: ['env:production'] }), NOW);
    batch.decide(key, report({ tags: ['env:production', 'env:other'] }), NOW + 1);
    batch.decide(key, report({ tags: ['env:dev'] }), NOW + 2);
    batch.decide(key, report(), NOW + 60_000);
    const fresh = batch.decide(key, report({ title: 'New', tags: ['env:dev'] }), NOW + 3);
    expect(batch.writes().occurrences).toEqual([
      { projectId: key.projectId, cardRef: 7, environment: 'production', minute, count: 2 },
      { projectId: key.projectId, cardRef: 7, environment: 'dev', minute, count: 1 },
      // No env tag: production (DEFAULT_ENV).
      {
        projectId: key.projectId,
        cardRef: 7,
        environment: 'production',
        minute: minute + 1,
        count: 1,
      },
      { projectId: key.projectId, cardRef: fresh.cardRef, environment: 'dev', minute, count: 1 },
    ]);
  });
});
