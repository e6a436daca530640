import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_STATUSES } from '../../../src/accept/index.ts';
import { CARD_SORTS, type CardQuery, type CardSummary } from '../../../src/store/board-types.ts';
import type { BoardStore } from '../../../src/store/board-types.ts';
import { PRIORITY_RANK, SEVERITY_RANK } from '../../../src/store/board-rows.ts';
import { taskReportSchema } from '../../../src/generated/schema.gen.ts';
import type { AuthKey, Store } from '../../../src/store/types.ts';
import { matchesSearch } from '../search-reference.ts';
import { openTestEngine, random, report, type TestEngine } from './engine.ts';

// The board port's contract, on this run's engine, over cards made by the real ingest path
// (injected clock): keyset pages walked forwards and backwards must give exactly the sorted,
// filtered list, also when a filter's scan runs out of its budget and the walk goes on from where
// it stopped; the per-hour counts must follow the reports; sessions end with their token. Each
// engine's query plans: sqlite/board-plans.test.ts, pg/board.test.ts.
const HOUR = 3_600_000;
const start = Date.UTC(2026, 10, 20, 0, 0, 0);
let clock = start;
let engine: TestEngine;
let store: Store;
let board: BoardStore;
/** The same store with a small scan budget, so filtered walks stop and resume many times. */
let budgeted: BoardStore;
// No time limit: the row budget is what these tests are about (a loaded machine would hit 100 ms).
const BUDGET = { rows: 25, chunk: 10, ids: 12, ms: 600_000 };
let key: AuthKey;

const SEVERITIES = [...taskReportSchema.properties.severity.enum];
const PRIORITIES = [...taskReportSchema.properties.priority.enum];
const TAGS = ['env:prod', 'env:dev', 'checkout', 'a"b', 'x\\y', '50%_off'];
/** Per title: the first report's description and file (frozen on the card) and its environments. */
const sent = new Map<
  string,
  {
    description: string | null;
    fileName: string | null;
    envs: Map<string, { count: number; first: number; last: number }>;
  }
>();

beforeAll(async () => {
  engine = await openTestEngine({ now: () => clock });
  store = engine.store;
  key = await engine.project();
  const next = random(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
  for (let i = 0; i < 240; i++) {
    clock += Math.floor(next() * 60_000);
    const title =
      i % 3 === 0
        ? `Card ${Math.floor(next() * 80)}`
        : `Error ${i} ${pick(['Type', 'range', 'DB'])}`;
    const env = pick(['production', 'production', 'development', null]);
    const file = pick(['src/api/orders.ts', 'src/web/pay.ts', null]);
    const description =
      i % 4 === 0
        ? null
        : `${pick(['TypeError', 'RangeError'])}: ${pick(['boom', 'bang'])} ${i}\n    at handler (${file ?? 'src/x.ts'}:${10 + (i % 7)}:3)`;
    const tags = [...TAGS.filter(() => next() < 0.3), ...(env ? [`env:${env}`] : [])];
    await store.ingest(
      key,
      report(title, {
        severity: pick(SEVERITIES),
        priority: pick(PRIORITIES),
        tags,
        description,
        file_name: file,
      }),
    );
    const card = sent.get(title) ?? { description, fileName: file, envs: new Map() };
    sent.set(title, card);
    // The first env tag names the environment (TAGS has some too); none: production.
    const named = tags.find((t) => t.startsWith('env:'))?.slice(4) ?? 'production';
    const seen = card.envs.get(named) ?? { count: 0, first: clock, last: clock };
    card.envs.set(named, { ...seen, count: seen.count + 1, last: clock });
  }
  board = await engine.board();
  budgeted = await engine.board(BUDGET);
  // Triage part of the cards (the statuses cycle through every value), so status filters bite.
  const ids = (
    await board.listCards(key.projectId, { sort: 'last_seen', dir: 'desc', limit: 1e4 })
  ).cards.map((c) => c.id);
  for (const [i, status] of (['in_progress', 'done', 'ignored', 'done'] as const).entries()) {
    const cardIds = ids.filter((id) => id % 5 === i);
    await board.setCardStatus({ cardIds, status, actor: 'test', at: clock });
  }
});

afterAll(async () => {
  await engine?.close();
});

const expectedKey = (
  c: CardSummary,
  sort: CardQuery['sort'],
  env?: string,
): (string | number)[] => {
  const inEnv = env === undefined ? undefined : sent.get(c.title)!.envs.get(env)!;
  switch (sort) {
    case 'last_seen':
      return [inEnv?.last ?? c.lastSeenAt, c.id];
    case 'first_seen':
      return [inEnv?.first ?? c.firstSeenAt, c.id];
    case 'count':
      return [inEnv?.count ?? c.occurrenceCount, c.id];
    case 'severity':
      return [SEVERITY_RANK[c.severity]!, c.id];
    case 'priority':
      return [PRIORITY_RANK[c.priority]!, c.id];
    case 'title':
      return [c.title, c.id];
  }
};
const compare = (a: (string | number)[], b: (string | number)[]) => {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return 0;
};

async function everything(): Promise<CardSummary[]> {
  const page = await board.listCards(key.projectId, {
    sort: 'last_seen',
    dir: 'desc',
    limit: 10_000,
  });
  return page.cards;
}

/**
 * Every page from the start (forwards), or from just before `from` back to the start; a page whose
 * scan ran out of its budget goes on from the key it stopped at, as the board's link does.
 */
async function walk(
  query: Omit<CardQuery, 'limit' | 'after' | 'before'>,
  from?: CardQuery['before'],
  store = board,
) {
  const backwards = from !== undefined;
  const seen: CardSummary[][] = [];
  let cursor = from;
  for (let guard = 0; guard < 1000; guard++) {
    const page = await store.listCards(key.projectId, {
      ...query,
      limit: 7,
      ...(cursor ? (backwards ? { before: cursor } : { after: cursor }) : {}),
    });
    if (page.scan) expect(page.scan.examined).toBeLessThanOrEqual(BUDGET.rows);
    seen.push(page.cards);
    if (!page.more) break;
    cursor = page.scan?.resumeAt ?? (backwards ? page.cards[0]!.key : page.cards.at(-1)!.key);
  }
  return (backwards ? seen.reverse() : seen).flat();
}

describe('cards page queries', () => {
  const filters: Partial<CardQuery>[] = [
    {},
    { severity: 'major' },
    { priority: 'high' },
    { tag: 'env:prod' },
    { tag: 'a"b' },
    { tag: '50%_off' },
    { text: 'error 1' },
    { text: '%' },
    { text: 'orders.ts:1' },
    { text: 'typeerr bang' },
    { text: 'checko' },
    { severity: 'critical', tag: 'checkout', text: 'card' },
    { env: 'production' },
    { env: 'development', statuses: ['todo', 'in_progress'] },
    { env: 'development', text: 'range' },
    { env: 'production', tag: 'env:prod', severity: 'minor' },
    { env: 'staging' },
    { statuses: ['todo', 'in_progress'] },
    { statuses: ['done'] },
    { statuses: ['ignored'], severity: 'major' },
    { statuses: [] },
  ];
  const passes = (c: CardSummary, filter: Partial<CardQuery>) =>
    (!filter.statuses || filter.statuses.includes(c.status)) &&
    (!filter.severity || c.severity === filter.severity) &&
    (!filter.priority || c.priority === filter.priority) &&
    (!filter.tag || c.tags.includes(filter.tag)) &&
    (!filter.env || sent.get(c.title)!.envs.has(filter.env)) &&
    (!filter.text || matchesSearch({ ...c, ...sent.get(c.title)! }, filter.text));
  it('the tab counts follow every filter, a search and an environment included', async () => {
    const all = await everything();
    for (const filter of filters) {
      const { statuses: _tab, ...rest } = filter;
      const counts = await board.countCards(key.projectId, {
        sort: 'last_seen',
        dir: 'desc',
        limit: 50,
        ...rest,
      });
      const expected = Object.fromEntries(
        CARD_STATUSES.map((s) => [
          s,
          { count: all.filter((c) => c.status === s && passes(c, rest)).length, atLeast: false },
        ]),
      );
      expect([filter, counts]).toEqual([filter, expected]);
    }
  });
  for (const sort of CARD_SORTS) {
    for (const dir of ['asc', 'desc'] as const) {
      it(`keyset pages by ${sort} ${dir} match the sorted list, forwards and backwards`, async () => {
        const all = await everything();
        expect(all.length).toBeGreaterThan(150);
        for (const filter of filters) {
          const expected = all
            .filter((c) => passes(c, filter))
            .sort(
              (a, b) =>
                compare(expectedKey(a, sort, filter.env), expectedKey(b, sort, filter.env)) *
                (dir === 'asc' ? 1 : -1),
            )
            .map((c) => c.id);
          const query = { sort, dir, ...filter };
          const forwards = await walk(query);
          expect([filter, forwards.map((c) => c.id)]).toEqual([filter, expected]);
          expect((await walk(query, undefined, budgeted)).map((c) => c.id)).toEqual(expected);
          const last = forwards.at(-1);
          if (!last) continue;
          expect((await walk(query, last.key)).map((c) => c.id)).toEqual(expected.slice(0, -1));
          expect((await walk(query, last.key, budgeted)).map((c) => c.id)).toEqual(
            expected.slice(0, -1),
          );
        }
      });
    }
  }

  it('the statuses set are on the cards', async () => {
    const statuses = new Set((await everything()).map((c) => c.status));
    expect([...statuses].sort()).toEqual(['done', 'ignored', 'in_progress', 'todo']);
  });

  it('a filter the index does not hold examines at most its budget, then says where to go on', async () => {
    const all = await everything();
    const query: CardQuery = { sort: 'last_seen', dir: 'desc', tag: 'x\\y', limit: 50 };
    const page = await budgeted.listCards(key.projectId, query);
    const edge = all[BUDGET.rows - 1]!;
    expect(page.scan).toEqual({ examined: BUDGET.rows, resumeAt: [edge.lastSeenAt, edge.id] });
    expect(page.more).toBe(true);
    const found = all.slice(0, BUDGET.rows).filter((c) => c.tags.includes('x\\y'));
    expect(found.length).toBeGreaterThan(0);
    expect(page.cards.map((c) => c.id)).toEqual(found.map((c) => c.id));
    // Unbudgeted (240 cards are far below the default), the same query fills its page.
    expect((await board.listCards(key.projectId, query)).scan).toBeUndefined();
  });

  it('a cursor of the wrong shape for the sort is refused', async () => {
    for (const after of [
      [1, 2, 3],
      ['a', 2],
    ]) {
      await expect(
        board.listCards(key.projectId, { sort: 'severity', dir: 'desc', limit: 5, after }),
      ).rejects.toThrow(RangeError);
    }
  });
});

describe('events per hour', () => {
  it('follows every report, including those folded into existing cards, and keeps 48 hours', async () => {
    clock = Date.UTC(2026, 10, 25, 10, 30, 0);
    const hour = Math.floor(clock / HOUR);
    const created = await store.ingest(key, report('Hourly card'));
    expect(created.kind).toBe('created');
    const cardId = (created as { card: { id: number } }).card.id;
    await store.ingest(key, report('Hourly card'));
    clock += HOUR;
    for (let i = 0; i < 3; i++)
      await store.ingest(key, report('Hourly card', { description: `v${i}` }));
    clock += 2 * HOUR;
    await store.ingest(key, report('Hourly card'));
    expect(await board.cardHours(cardId, hour - 1, hour + 3)).toEqual([0, 2, 3, 0, 1]);
    const card = await board.getCard(key.projectId, cardId, Math.floor(clock / 86_400_000));
    expect(card?.occurrenceCount).toBe(6);

    clock += 60 * HOUR;
    await store.ingest(key, report('Hourly card'));
    const rows = await board.cardHours(cardId, hour - 1, hour + 80);
    expect(rows.reduce((a, b) => a + b, 0)).toBe(1); // older hours pruned past 48 h
  });
});

describe('sessions and tokens', () => {
  it('a session names its token until it expires or the token is revoked', async () => {
    const id = await board.insertAdminToken({ name: 'ops', lookup: 'l1', createdAt: clock });
    await board.insertSession({
      lookup: 's1',
      tokenId: id,
      createdAt: clock,
      expiresAt: clock + 10,
    });
    expect(await board.findAdminToken('l1')).toEqual({ id, name: 'ops' });
    expect(await board.findSession('s1', clock)).toEqual({ tokenId: id, tokenName: 'ops' });
    expect(await board.findSession('s1', clock + 10)).toBeUndefined();
    expect(await board.revokeAdminToken(id, clock)).toBe(true);
    expect(await board.revokeAdminToken(id, clock)).toBe(false);
    expect(await board.findAdminToken('l1')).toBeUndefined();
    expect(await board.findSession('s1', clock)).toBeUndefined();
  });
});
