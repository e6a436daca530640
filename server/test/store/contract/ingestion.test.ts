import { afterEach, describe, expect, it } from 'vitest';
import { createAdmin } from '../../../src/admin.ts';
import { PLANS } from '../../../src/generated/limits.gen.ts';
import { openTestEngine, report as r, type TestEngine } from './engine.ts';

// The ingestion port's contract, on this run's engine in-process with an injected clock:
// time-dependent rules (minute windows, midnight UTC reset, least-recently-seen pruning) that a
// fixed-clock process cannot show, one batch's exact counts, bounded caches, keys at rest.
const engines: TestEngine[] = [];
let clock = Date.UTC(2026, 10, 22, 23, 59, 0);
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

async function setup(
  opts: {
    variantCap?: number;
    plans?: Partial<typeof PLANS>;
    cacheBudgets?: { cards?: number; titles?: number; counters?: number };
  } = {},
) {
  const engine = await openTestEngine({
    now: () => clock,
    plans: { ...PLANS, ...opts.plans } as never,
    variantCap: opts.variantCap ?? 20,
    cacheBudgets: opts.cacheBudgets,
  });
  engines.push(engine);
  const key = await engine.project({ plan: 'hobby' });
  return { store: engine.store, key, projectId: key.projectId };
}

describe('time windows', () => {
  it('the burst bucket refills continuously, one token per 60 s / limit', async () => {
    clock = Date.UTC(2026, 10, 22, 10, 0, 59);
    const { store, key } = await setup({
      plans: { hobby: { burstPerMinute: 2, dailyEvents: 100 } } as never,
    });
    expect((await store.ingest(key, r('a'))).kind).toBe('created');
    expect((await store.ingest(key, r('b'))).kind).toBe('created');
    const limited = await store.ingest(key, r('c'));
    expect(limited).toMatchObject({ kind: 'rate_limited', retryAfter: 30 });
    clock += 1000; // a new UTC minute, but only 1/30 of a token back
    expect(await store.ingest(key, r('c'))).toMatchObject({ kind: 'rate_limited', retryAfter: 29 });
    clock += 28_999;
    expect(await store.ingest(key, r('c'))).toMatchObject({ kind: 'rate_limited', retryAfter: 1 });
    expect(await store.rateState(key.projectId, 'hobby')).toEqual({ limit: 2, remaining: 0 });
    clock += 1;
    expect(await store.ingest(key, r('c'))).toMatchObject({
      kind: 'created',
      rate: { limit: 2, remaining: 0 },
    });
  });

  it('the daily quota resets at midnight UTC', async () => {
    clock = Date.UTC(2026, 10, 22, 23, 59, 59);
    const { store, key } = await setup({
      plans: { hobby: { burstPerMinute: 100, dailyEvents: 2 } } as never,
    });
    await store.ingest(key, r('a'));
    await store.ingest(key, r('b'));
    expect(await store.ingest(key, r('c'))).toMatchObject({ kind: 'dropped', reason: 'quota' });
    clock = Date.UTC(2026, 10, 23, 0, 0, 0);
    expect((await store.ingest(key, r('c'))).kind).toBe('created');
  });
});

describe('variants cap', () => {
  it('prunes the least recently seen into one Other variants row that keeps no bodies', async () => {
    clock = Date.UTC(2026, 10, 22, 12, 0, 0);
    const { store, key, projectId } = await setup({ variantCap: 3 });
    const send = async (file: string) => {
      clock += 1000;
      return store.ingest(key, r('Capped', { description: 'same', file_name: file }));
    };
    await send('a.ts');
    await send('b.ts');
    await send('c.ts');
    await send('a.ts'); // a is now the most recent; b is the least recently seen
    await send('d.ts'); // novel: b is pruned
    await send('e.ts'); // novel: c is pruned
    const [card] = await store.listCards(projectId);
    expect(card!.occurrence_count).toBe(6);
    const named = card!.variants.filter((v) => !v.aggregate).map((v) => [v.file_name, v.count]);
    expect(named.sort()).toEqual([
      ['a.ts', 2],
      ['d.ts', 1],
      ['e.ts', 1],
    ]);
    const other = card!.variants.filter((v) => v.aggregate);
    expect(other).toHaveLength(1);
    expect(other[0]).toMatchObject({
      title: 'Other variants',
      description: null,
      file_name: null,
      count: 2,
    });
    const total = card!.variants.reduce((n, v) => n + v.count, 0);
    expect(total).toBe(card!.occurrence_count);
  });

  it('absent fields are part of identity', async () => {
    const { store, key, projectId } = await setup();
    await store.ingest(key, r('Id'));
    await store.ingest(key, r('Id'));
    await store.ingest(key, r('Id', { line_number: 4 }));
    const [card] = await store.listCards(projectId);
    expect(card!.variants.map((v) => v.count).sort()).toEqual([1, 2]);
  });
});

describe('keys at rest', () => {
  it('stores no key value, only hashes and public ids', async () => {
    const { store, projectId } = await setup();
    const admin = createAdmin(store);
    const pub = await admin.createPublishableKey({ projectId, name: 'b' });
    const sec = await admin.createSecretKey({ projectId, name: 's' });
    const dump = JSON.stringify(await store.listKeys(projectId));
    expect(dump).not.toContain(pub.token);
    expect(dump).not.toContain(sec.signingSecret);
    expect(pub.token).toMatch(/^svc_pub_[0-9a-f]{48}$/);
    expect(sec.keyId).toMatch(/^svck_/);
    expect(sec.signingSecret).toMatch(/^svc_sec_/);
  });
});

describe('group commit', () => {
  it('reports decided in one batch count exactly, however the card was matched', async () => {
    clock = Date.UTC(2026, 10, 22, 12, 0, 0);
    const { store, key, projectId } = await setup({
      plans: { hobby: { burstPerMinute: 1000, dailyEvents: 1000 } } as never,
    });
    const outcomes = await Promise.all(
      Array.from({ length: 90 }, (_, i) =>
        store.ingest(
          key,
          i % 3 === 0
            ? r('Batch', { description: 'body', tags: [`t${i % 2}`] })
            : i % 3 === 1
              ? r(`Other title ${i}`, { description: 'body' }) // matches on description
              : r('Batch', { file_name: 'x.ts' }),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(1);
    const counts = outcomes.map((o) =>
      o.kind === 'deduplicated' || o.kind === 'created' ? o.card.occurrence_count : 0,
    );
    expect(counts).toEqual(Array.from({ length: 90 }, (_, i) => i + 1));
    const cards = await store.listCards(projectId);
    expect(cards).toHaveLength(1);
    expect(cards[0]!.occurrence_count).toBe(90);
    expect(cards[0]!.tags).toEqual(['t0', 't1']);
    expect(cards[0]!.variants.reduce((n, v) => n + v.count, 0)).toBe(90);
    // 32 identities ('Batch'+body, 'Batch'+x.ts, 30 titles): 20 kept plus the aggregate row.
    expect(cards[0]!.variants.length).toBe(21);
    expect(cards[0]!.variants.filter((v) => v.aggregate)).toHaveLength(1);
  });
});

describe('read caches bounded by bytes', () => {
  it('counts stay exact when every cache keeps almost nothing', async () => {
    clock = Date.UTC(2026, 10, 22, 12, 0, 0);
    const { store, key, projectId } = await setup({
      plans: { hobby: { burstPerMinute: 10_000, dailyEvents: 10_000 } } as never,
      cacheBudgets: { cards: 1, titles: 1, counters: 1 },
    });
    const long = 'x'.repeat(65_000);
    for (let round = 0; round < 3; round++) {
      // One batch per round: 20 titles, each twice, half matched by description only.
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          store.ingest(
            key,
            r(i < 20 ? `Title ${i}` : `Other ${i}-${round}`, {
              description: `${long}${i % 20}`,
              tags: [`r${round}`],
            }),
          ),
        ),
      );
    }
    const cards = await store.listCards(projectId);
    expect(cards).toHaveLength(20);
    for (const card of cards) {
      expect(card.occurrence_count).toBe(6);
      expect(card.tags).toEqual(['r0', 'r1', 'r2']);
      expect(card.description!.length).toBe(65_000 + String(card.title.slice(6)).length);
    }
    const shown = await store.ingest(key, r('Title 3'));
    expect(shown.kind === 'deduplicated' && shown.card.description).toBe(`${long}3`);
  });
});

describe('auth key cache', () => {
  it('a key revoked through the same store is refused at once', async () => {
    const { store, projectId } = await setup();
    const admin = createAdmin(store);
    const sec = await admin.createSecretKey({ projectId, name: 's' });
    expect((await store.findAuthKey('secret', sec.keyId))?.projectId).toBe(projectId);
    expect((await store.findAuthKey('secret', sec.keyId))?.projectId).toBe(projectId); // cached
    await admin.revokeKey(sec.id);
    expect(await store.findAuthKey('secret', sec.keyId)).toBeUndefined();
  });
});
