import { describe, expect, it } from 'vitest';
import {
  type CardState,
  createAcceptance,
  descriptionHash,
  mergeTags,
  planPrune,
  releaseOf,
  environmentOf,
  type TaskReport,
  utcDay,
  variantIdentity,
} from '../../src/accept/index.ts';
import { PLANS } from '../../src/generated/limits.gen.ts';

// Folding a report into its card, variants and pruning, on plain values.
const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);
const acceptance = createAcceptance({
  plans: PLANS,
  projectQuotaShare: 0.8,
  variantCap: 20,
  tagsPerCard: 4,
});
const report = (more: Partial<TaskReport> = {}): TaskReport => ({
  severity: 'major',
  priority: 'high',
  title: 'Boom',
  description: 'TypeError: x\n    at f (a.js:1:2)',
  tags: ['a'],
  file_name: 'src/a.ts',
  line_number: 3,
  ...more,
});
const card = (more: Partial<CardState> = {}): CardState => ({
  id: 7,
  status: 'todo',
  regressions: 0,
  tags: ['a', 'b'],
  occurrenceCount: 4,
  lastSeenAt: NOW - 1000,
  usageDay: utcDay(NOW),
  usageCount: 2,
  resolvedEnv: null,
  resolvedRelease: null,
  ...more,
});

describe('fold', () => {
  it('describes a new card from the first report', () => {
    const folded = acceptance.fold(null, report(), NOW);
    expect(folded.kind).toBe('created');
    expect(folded.writes.card).toEqual({
      kind: 'insert',
      card: {
        title: 'Boom',
        description: 'TypeError: x\n    at f (a.js:1:2)',
        descriptionHash: descriptionHash(report()),
        descriptionType: 'code',
        priority: 'high',
        severity: 'major',
        tags: ['a'],
        status: 'todo',
        fileName: 'src/a.ts',
        lineNumber: 3,
        createdAt: NOW,
        lastSeenAt: NOW,
        occurrenceCount: 1,
        usageDay: utcDay(NOW),
        usageCount: 1,
      },
    });
    expect(folded.writes.variant).toEqual({
      identity: variantIdentity(report()),
      title: 'Boom',
      description: report().description,
      fileName: 'src/a.ts',
      lineNumber: 3,
      at: NOW,
    });
  });

  it('folds a repeat: one more occurrence, last seen now, new tags merged in order', () => {
    const folded = acceptance.fold(card(), report({ tags: ['c', 'a'] }), NOW);
    expect(folded).toMatchObject({
      kind: 'deduplicated',
      writes: {
        card: {
          kind: 'update',
          card: {
            id: 7,
            occurrenceCount: 5,
            lastSeenAt: NOW,
            tags: ['a', 'b', 'c'],
            usageDay: utcDay(NOW),
            usageCount: 3,
            regression: null,
          },
        },
      },
      status: 'todo',
      notice: null,
    });
  });

  it('writes no tags when none are new, and restarts the day count on a new UTC day', () => {
    const folded = acceptance.fold(card({ usageDay: utcDay(NOW) - 1 }), report(), NOW);
    expect(folded.writes.card).toMatchObject({ card: { tags: null, usageCount: 1 } });
  });

  it('keeps at most tagsPerCard tags on a card', () => {
    const many = report({ tags: ['c', 'd', 'e', 'f'] });
    expect(acceptance.fold(card(), many, NOW).writes.card).toMatchObject({
      card: { tags: ['a', 'b', 'c', 'd'] },
    });
    expect(
      acceptance.fold(card({ tags: ['a', 'b', 'c', 'd'] }), many, NOW).writes.card,
    ).toMatchObject({ card: { tags: null } });
    expect(acceptance.fold(null, many, NOW).writes.card).toMatchObject({
      card: { tags: ['c', 'd', 'e', 'f'] },
    });
    expect(mergeTags(['x'], ['x', 'y', 'y', 'z'])).toEqual(['x', 'y', 'z']);
  });

  it('a blank description has no match key; identity counts absent fields', () => {
    expect(descriptionHash({ description: null })).toBeNull();
    expect(descriptionHash({ description: '  \n ' })).toBeNull();
    expect(descriptionHash({ description: 'x' })).toMatch(/^[0-9a-f]{64}$/);
    const bare = report({ file_name: null, line_number: null });
    expect(variantIdentity(bare)).toBe(variantIdentity({ ...bare, tags: ['other'] }));
    expect(variantIdentity(bare)).not.toBe(variantIdentity({ ...bare, line_number: 1 }));
  });
});

describe('triage statuses', () => {
  it('a new card is todo and noticed as new, with the release and environment of its report', () => {
    expect(acceptance.fold(null, report(), NOW)).toMatchObject({
      status: 'todo',
      notice: { kind: 'new', release: null, environment: 'production' },
    });
    const tagged = acceptance.fold(null, report({ tags: ['env:staging', 'release:3.1'] }), NOW);
    expect(tagged.notice).toEqual({ kind: 'new', release: '3.1', environment: 'staging' });
  });

  it('a report of a done card reopens it: todo, one more regression, its release recorded', () => {
    const folded = acceptance.fold(
      card({ status: 'done', regressions: 2 }),
      report({ tags: ['env:prod', 'release:2.4.2', 'release:9'] }),
      NOW,
    );
    expect(folded.status).toBe('todo');
    expect(folded.notice).toEqual({ kind: 'regression', release: '2.4.2', environment: 'prod' });
    expect(folded.writes.card).toMatchObject({
      kind: 'update',
      card: {
        occurrenceCount: 5,
        regression: {
          from: 'done',
          to: 'todo',
          regressions: 3,
          at: NOW,
          release: '2.4.2',
          environment: 'prod',
          ordering: null,
        },
      },
    });
    const bare = acceptance.fold(card({ status: 'done' }), report({ tags: ['release:'] }), NOW);
    expect(bare.writes.card).toMatchObject({ card: { regression: { release: null } } });
  });

  it('ignored and in-progress cards keep their status and count on, without a notice', () => {
    for (const status of ['ignored', 'in_progress', 'todo'] as const) {
      const folded = acceptance.fold(card({ status, regressions: 1 }), report(), NOW);
      expect(folded).toMatchObject({ status, notice: null });
      expect(folded.writes.card).toMatchObject({
        card: { occurrenceCount: 5, regression: null },
      });
    }
  });

  it('reads the release from the first non-empty release tag', () => {
    expect(releaseOf(['env:x', 'release:1.0', 'release:2.0'])).toBe('1.0');
    expect(releaseOf(['release:', 'releases:1'])).toBeNull();
    expect(releaseOf([])).toBeNull();
  });

  it('reads the environment from the first non-empty env tag', () => {
    expect(environmentOf(['release:1', 'env:', 'env:production', 'env:dev'])).toBe('production');
    // Without one, production (see DEFAULT_ENV).
    expect(environmentOf(['environment:x', 'envs:y'])).toBe('production');
    expect(environmentOf([])).toBe('production');
  });
});

describe('accept', () => {
  const read = {
    plan: 'hobby' as const,
    projectState: 'active' as const,
    bucket: null,
    accountUsage: 0,
    projectUsage: 0,
    activeProjects: 1,
    card: card(),
  };
  it('an admitted report gets counter and card writes', () => {
    const result = acceptance.accept(read, report(), NOW);
    expect(result.decision).toEqual({ kind: 'deduplicated', rate: { limit: 60, remaining: 59 } });
    expect(result.writes.counters?.usageDay).toBe(utcDay(NOW));
    expect(result.writes.card?.card.kind).toBe('update');
  });

  it('a drop writes nothing', () => {
    expect(acceptance.accept({ ...read, projectState: 'paused' }, report(), NOW)).toEqual({
      decision: { kind: 'dropped', reason: 'paused', rate: { limit: 60, remaining: 60 } },
      writes: {},
    });
  });
});

describe('planPrune', () => {
  const v = (id: number, lastSeenAt: number, count = 1) => ({
    id,
    count,
    firstSeenAt: lastSeenAt - 10,
    lastSeenAt,
  });
  it('removes the least recently seen over the cap and folds their counts', () => {
    expect(planPrune([v(1, 5), v(2, 3, 4), v(3, 9), v(4, 3, 2)], 2)).toEqual({
      remove: [2, 4],
      fold: { count: 6, firstSeenAt: -7, lastSeenAt: 3 },
    });
    expect(planPrune([v(1, 5)], 2)).toEqual({ remove: [], fold: null });
  });
});
