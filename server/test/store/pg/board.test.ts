import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BoardStore,
  type BoardVariant,
  CARD_SORTS,
  type CardQuery,
  type CardSummary,
} from '../../../src/store/board-types.ts';
import { cardsSql, type CardsSqlOptions } from '../../../src/store/cards-sql.ts';
import { PG_CARDS } from '../../../src/store/pg/board-cards.ts';
import { openPgBoardStore } from '../../../src/store/pg/board.ts';
import { openPgStore } from '../../../src/store/pg/store.ts';
import { openSqliteStore } from '../../../src/store/sqlite/store.ts';
import { openSqliteBoardStore } from '../../../src/store/sqlite/board.ts';
import type { AuthKey, Store } from '../../../src/store/types.ts';
import { requirePostgres } from '../../store-kind.ts';
import { random, report } from '../contract/engine.ts';

// PostgreSQL only: the same reports go through the real ingest of both stores (injected clock,
// over three days), then every board read must answer the same on both: keyset pages walked
// forwards and backwards under every sort, direction and filter, card pages, variants, per-hour
// counts. And each sort reads an index in order on PostgreSQL (no Sort node). What every engine
// answers on its own (pages against the sorted list, sessions): contract/board.test.ts.
const HOUR = 3_600_000;
let clock = Date.UTC(2026, 10, 20, 0, 0, 0);
let dataDir: string;
let url: string;
const stores: Store[] = [];
let sqliteBoard: BoardStore;
let pgBoard: BoardStore;
/** The PostgreSQL board with a small scan budget: filtered walks stop and go on many times. */
let budgeted: BoardStore;
const PROJECT = 1;

const SEVERITIES = ['critical', 'major', 'moderate', 'minor'] as const;
const PRIORITIES = ['low', 'medium', 'high'] as const;
const TAGS = ['env:prod', 'env:dev', 'checkout', 'a"b', 'x\\y', '50%_off'];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-pg-board-'));
  url = await requirePostgres();
  const big = { burstPerMinute: 1e9, dailyEvents: 1e9 };
  const config = {
    now: () => clock,
    plans: { hobby: big, indie: big, professional: big, team: big },
    variantCap: 3,
    projectQuotaShare: 0.8,
  };
  const both = [openSqliteStore({ dataDir, ...config }), await openPgStore({ url, ...config })];
  stores.push(...both);
  const key: AuthKey = {
    id: 1,
    kind: 'publishable',
    projectId: PROJECT,
    accountId: 1,
    plan: 'team',
    secretHash: null,
    origins: [],
  };
  for (const store of both) {
    await store.createAccount({ name: 'A', plan: 'team', members: [] });
    await store.createProject({ accountId: 1, name: 'P' });
  }
  const next = random(11);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  for (let i = 0; i < 300; i++) {
    clock += Math.floor(next() * 15 * 60_000);
    const title =
      i % 3 === 0
        ? `Card ${Math.floor(next() * 60)}`
        : `Error ${i} ${pick(['Type', 'range', 'DB'])}`;
    const file = pick(['a.ts', 'b.ts', 'c.ts', 'd.ts', null]);
    const env = pick(['production', 'development', 'staging', null]);
    const r = report(title, {
      severity: pick(SEVERITIES),
      priority: pick(PRIORITIES),
      tags: [...TAGS.filter(() => next() < 0.3), ...(env ? [`env:${env}`] : [])],
      file_name: file,
      description:
        i % 5 === 0
          ? null
          : `${pick(['TypeError', 'RangeError'])}: ${pick(['boom', 'bang', 'café'])} ${i}\n    at run (src/${file ?? 'x.ts'}:${i % 9}:1)`,
    });
    for (const store of both) await store.ingest(key, r);
  }
  sqliteBoard = openSqliteBoardStore({ dataDir });
  pgBoard = await openPgBoardStore({ url });
  budgeted = await openPgBoardStore({ url, scan: { rows: 25, ids: 12 } });
  // The same statuses on both: every value, so status filters and counts bite.
  const ids = (
    await sqliteBoard.listCards(PROJECT, { sort: 'last_seen', dir: 'desc', limit: 1e4 })
  ).cards.map((c) => c.id);
  for (const board of [sqliteBoard, pgBoard]) {
    for (const [i, status] of (['in_progress', 'done', 'ignored', 'done'] as const).entries()) {
      const cardIds = ids.filter((id) => id % 5 === i);
      await board.setCardStatus({ cardIds, status, actor: 'test', at: clock });
    }
  }
});

afterAll(async () => {
  await sqliteBoard?.close();
  await pgBoard?.close();
  await budgeted?.close();
  for (const s of stores) await s.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function walk(board: BoardStore, query: Omit<CardQuery, 'limit'>, backwards = false) {
  const seen: CardSummary[][] = [];
  let cursor: CardQuery['after'];
  for (let guard = 0; guard < 1000; guard++) {
    const page = await board.listCards(PROJECT, {
      ...query,
      limit: 9,
      ...(cursor ? (backwards ? { before: cursor } : { after: cursor }) : {}),
    });
    if (page.scan) expect(page.scan.examined).toBeLessThanOrEqual(25);
    seen.push(page.cards);
    if (!page.more) break;
    // A scan out of budget goes on from the key it stopped at, as the board's link does.
    cursor = page.scan?.resumeAt ?? (backwards ? page.cards[0]!.key : page.cards.at(-1)!.key);
  }
  return seen.flat();
}

describe('the board on PostgreSQL answers as on SQLite', () => {
  const filters: Partial<CardQuery>[] = [
    {},
    { severity: 'major' },
    { priority: 'low' },
    { tag: 'a"b' },
    { tag: '50%_off' },
    { text: 'type' },
    { text: '%' },
    { text: 'a.ts:3' },
    { text: 'rangeerror bo' },
    { text: 'CAFÉ' },
    { text: 'env:prod' },
    { tag: 'env:staging', text: 'error' },
    { env: 'production' },
    { env: 'development', statuses: ['todo', 'in_progress'], severity: 'major' },
    { env: 'staging', text: 'bang' },
    { env: 'nowhere' },
    { statuses: ['todo', 'in_progress'] },
    { statuses: ['done'], severity: 'minor' },
  ];
  for (const sort of CARD_SORTS) {
    it(`pages by ${sort}, both directions, every filter`, async () => {
      for (const dir of ['asc', 'desc'] as const) {
        for (const filter of filters) {
          const query = { sort, dir, ...filter };
          const expected = await walk(sqliteBoard, query);
          expect(expected.length).toBeGreaterThanOrEqual(filter.env === 'nowhere' ? 0 : 1);
          expect([query, await walk(pgBoard, query)]).toEqual([query, expected]);
          expect([query, await walk(budgeted, query)]).toEqual([query, expected]);
          // Backwards from past the end gives the same rows.
          const last = expected.at(-1);
          if (!last) continue;
          const back = await pgBoard.listCards(PROJECT, { ...query, limit: 5, before: last.key });
          expect(back.cards).toEqual(expected.slice(-6, -1));
        }
      }
    });
  }

  it('overview, card pages, variants and per-hour counts', async () => {
    const day = Math.floor(clock / 86_400_000);
    const page = { limit: 20, projectsPerAccount: 5 };
    expect(await pgBoard.overview(day, page)).toEqual(await sqliteBoard.overview(day, page));
    const project = await sqliteBoard.getProject(PROJECT, day);
    expect(Object.values(project!.statusCounts).every((n) => n > 0)).toBe(true);
    expect(await pgBoard.getProject(PROJECT, day)).toEqual(project);
    expect(await pgBoard.getAccount(project!.accountId, day, { limit: 50 })).toEqual(
      await sqliteBoard.getAccount(project!.accountId, day, { limit: 50 }),
    );
    const all = await walk(sqliteBoard, { sort: 'count', dir: 'desc' });
    const hour = Math.floor(clock / HOUR);
    let hours = 0;
    for (const { id } of all.slice(0, 25)) {
      expect(await pgBoard.getCard(PROJECT, id, day)).toEqual(
        await sqliteBoard.getCard(PROJECT, id, day),
      );
      const history = await sqliteBoard.cardHistory(id, 10);
      expect((await pgBoard.cardHistory(id, 10)).map(({ id: _, ...e }) => e)).toEqual(
        history.map(({ id: _, ...e }) => e),
      );
      // Variant ids differ once variants are pruned (SQLite reuses the highest row id).
      const variants = await sqliteBoard.listVariants(id, 40);
      const pgVariants = await pgBoard.listVariants(id, 40);
      const withoutIds = (vs: BoardVariant[]) => vs.map(({ id: _, ...v }) => v);
      expect(withoutIds(pgVariants)).toEqual(withoutIds(variants));
      const { id: _, ...first } = (await pgBoard.getVariant(id, pgVariants[0]!.id))!;
      expect(first).toEqual(withoutIds([(await sqliteBoard.getVariant(id, variants[0]!.id))!])[0]);
      const counts = await sqliteBoard.cardHours(id, hour - 47, hour);
      hours += counts.reduce((n, c) => n + c, 0);
      expect(await pgBoard.cardHours(id, hour - 47, hour)).toEqual(counts);
    }
    expect(hours).toBeGreaterThan(0);
  });

  it('every sort reads one index range per status, in order, from the cursor (no Sort node)', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const explain = async (query: CardQuery, o: Partial<CardsSqlOptions> = {}) => {
      const { sql, params } = cardsSql(PG_CARDS, PROJECT, query, { limit: 51, ...o });
      const { rows } = await client.query(`EXPLAIN ${sql}`, params);
      return rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
    };
    const scans = (plan: string) =>
      [...plan.matchAll(/Index (Only )?Scan(?: Backward)? using (\w+)/g)].map((m) => m[0]);
    const conds = (plan: string) => [...plan.matchAll(/Index Cond: (.+)/g)].map((m) => m[1]!);
    const sortNode = /(^|->\s+)(Incremental )?Sort\s+\(/m;
    try {
      // 300 rows fit in a page or two, where a scan and a sort are cheaper: discourage both, so
      // the plan shows whether an index can deliver the order (a Sort would remain otherwise).
      await client.query(
        'SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off',
      );
      for (const sort of CARD_SORTS) {
        const index = `cards_by_status_${sort}`;
        for (const dir of ['asc', 'desc'] as const) {
          // The cards page's default: open cards, two index ranges merged; a page further on.
          const statuses = ['todo', 'in_progress'] as const;
          const after = sort === 'title' ? ['Error', 10] : [2, 10];
          const plan = await explain({ sort, dir, statuses, after, limit: 50 });
          expect([sort, dir, scans(plan), sortNode.test(plan)]).toEqual([
            sort,
            dir,
            scans(plan).map(() => expect.stringMatching(new RegExp(`Scan.* using ${index}$`))),
            false,
          ]);
          expect(scans(plan)).toHaveLength(2);
          for (const cond of conds(plan)) expect(cond).toMatch(/status = .* AND \(ROW\(/);
        }
        // A filtered scan's window edge reads the index alone.
        const edge = await explain(
          { sort, dir: 'desc', statuses: ['done'], tag: 'x', limit: 50 },
          { keysOnly: true, offset: 999 },
        );
        expect(scans(edge)).toEqual([`Index Only Scan Backward using ${index}`]);
      }
      // A severity under its own sort seeks the id within the rank.
      const plan = await explain({
        sort: 'severity',
        dir: 'desc',
        statuses: ['todo'],
        severity: 'major',
        after: [3, 100],
        limit: 50,
      });
      expect(conds(plan)).toEqual([expect.stringMatching(/severity_rank = .* AND \(id < /)]);
      // One environment's cards: its own index per sort, led by project, environment and status.
      for (const sort of CARD_SORTS) {
        for (const dir of ['asc', 'desc'] as const) {
          const after = sort === 'title' ? ['Error', 10] : [2, 10];
          const query = { sort, dir, env: 'production', after, limit: 50 } as CardQuery;
          const plan = await explain({ ...query, statuses: ['todo', 'in_progress'] });
          // Each row's card is then read by its id.
          const envScans = scans(plan).filter((x) => !x.endsWith('cards_pkey'));
          expect([sort, dir, envScans, sortNode.test(plan)]).toEqual([
            sort,
            dir,
            [0, 1].map(() =>
              expect.stringMatching(new RegExp(`Scan.* using card_envs_by_${sort}$`)),
            ),
            false,
          ]);
          for (const cond of conds(plan).filter((c) => c.includes('env'))) {
            expect(cond).toMatch(/env = .* AND \(status = .* AND \(ROW\(/);
          }
        }
      }
    } finally {
      await client.end();
    }
  });
});
