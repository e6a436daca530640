import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../src/store/sqlite/driver.ts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { STORE_KIND, testDatabaseUrl } from '../store-kind.ts';

// The built service (dist/) with the board, in-process with an injected clock, on both stores:
// 20,000 accounts (one holding 120 projects, one with a 10,000-character name, one project with
// 10,050 cards) give accounts pages of 20 accounts, bounded in bytes, walked by keyset both ways;
// a tag on 3 of 25,000 cards is found through the full-text index at once, and a tag it cannot
// narrow down is searched 20,000 cards a request at most, each page saying where the search goes
// on. (Wrong admin tokens: sign-in-throttle.test.ts.)
const { startServer } = (await import('../../dist/index.js')) as unknown as {
  startServer: typeof import('../../src/server.ts').startServer;
};
const clock = Date.UTC(2026, 10, 26, 12, 0, 0);
let dataDir: string;
let databaseUrl: string | undefined;
let server: RunningServer;
let token: string;
let big: { account: number; project: number; scanned: number };

/** Cards of the scanned project carrying the tag, newest first (last seen = their number). */
const RARE = [24_990, 12_000, 5];

/** Bulk rows straight into the store's database (setup only; the board reads them like any). */
async function seed(sql: { sqlite: string; pg: string }) {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(sql.pg);
    } finally {
      await client.end();
    }
  } else {
    const db = openSqlite(join(dataDir, 'svc.sqlite'));
    db.exec(sql.sqlite);
    db.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-board-bounded-'));
  databaseUrl = await testDatabaseUrl();
  server = await startServer({ port: 0, dataDir, databaseUrl, board: true, now: () => clock });
  token = (await server.board!.adminTokens.create({ name: 'ops' })).token;
  await seed({
    sqlite: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
      INSERT INTO accounts (name, plan, created_at) SELECT 'Account ' || i, 'team', 0 FROM n;
      INSERT INTO projects (account_id, name, created_at) SELECT id, 'Project of ' || id, 0 FROM accounts;`,
    pg: `INSERT INTO accounts (name, plan, created_at)
        SELECT 'Account ' || i, 'team', 0 FROM generate_series(1, 20000) i;
      INSERT INTO projects (account_id, name, created_at) SELECT id, 'Project of ' || id, 0 FROM accounts;`,
  });
  const account = await server.admin.createAccount({ name: 'N'.repeat(10_000), plan: 'team' });
  const projects = [];
  for (let i = 0; i < 120; i++) {
    projects.push(await server.admin.createProject({ accountId: account.id, name: `P${i}` }));
  }
  big = { account: account.id, project: projects[0]!.id, scanned: projects[1]!.id };
  const cards = (
    series: string,
  ) => `INSERT INTO cards (project_id, title, description_type, priority,
      severity, tags, status, occurrence_count, created_at, last_seen_at)
    SELECT ${big.project}, 'Card ' || i, 'text', 'low', 'minor', '[]', 'todo', 1, 0, 0 FROM ${series}`;
  await seed({
    sqlite: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10050) ${cards('n')};`,
    pg: `${cards('generate_series(1, 10050) i')};`,
  });
  // 25,000 cards seen one after the other; 3 carry the tags `rare` and `✓` (no letter or digit,
  // so the full-text index cannot narrow it down).
  const tagged = (series: string) => `INSERT INTO cards (project_id, title, description_type,
      priority, severity, tags, status, occurrence_count, created_at, last_seen_at)
    SELECT ${big.scanned}, 'Scan card ' || i, 'text', 'low', 'minor',
      CASE WHEN i IN (${RARE.join(', ')}) THEN '["rare","✓"]' ELSE '["env:prod"]' END, 'todo',
      1, i, i
    FROM ${series}`;
  // The cards written here, not by ingestion, count in production as the ingest would count them.
  const inProduction = `INSERT INTO card_envs (card_id, env, project_id, status, title,
      severity_rank, priority_rank, occurrence_count, first_seen_at, last_seen_at)
    SELECT id, 'production', project_id, status, title, severity_rank, priority_rank,
      occurrence_count, created_at, last_seen_at FROM cards`;
  await seed({
    sqlite: `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 25000) ${tagged('n')}; ${inProduction};`,
    pg: `${tagged('generate_series(1, 25000) i')}; ${inProduction};`,
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = async (path: string) => {
  const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, html: await res.text() };
};
const sectionIds = (html: string) =>
  [...html.matchAll(/<h2><a href="\/board\/accounts\/(\d+)">/g)].map((m) => Number(m[1]));
const link = (html: string, rel: 'next' | 'prev') =>
  new RegExp(`<a rel="${rel}" href="([^"]+)">`).exec(html)?.[1]?.replaceAll('&amp;', '&');

describe(`accounts pages (${STORE_KIND})`, () => {
  it('20,000 accounts: 20 a page, under 64 kB, walked forward and back by keyset', async () => {
    const first = await get('/board');
    expect(first.status).toBe(200);
    expect(Buffer.byteLength(first.html)).toBeLessThan(64 * 1024);
    expect(sectionIds(first.html)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(link(first.html, 'prev')).toBeUndefined();
    const second = await get(link(first.html, 'next')!);
    expect(sectionIds(second.html)).toEqual(Array.from({ length: 20 }, (_, i) => i + 21));
    const back = await get(link(second.html, 'prev')!);
    expect(sectionIds(back.html)).toEqual(sectionIds(first.html));
    const deep = await get('/board?after=19990');
    expect(sectionIds(deep.html)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => 19_991 + i),
      big.account,
    ]);
    expect(link(deep.html, 'next')).toBeUndefined();
  });

  it('an account of 120 projects shows 5 and links to its own pages of 50', async () => {
    const page = await get(`/board?before=${big.account + 1}`);
    const section = page.html.slice(page.html.indexOf(`/board/accounts/${big.account}"`));
    expect(section).toContain(`All 120 projects →`);
    expect(section.match(/href="\/board\/projects\/\d+"/g)).toHaveLength(5);
    // A 10,000-character name is shown clipped; the page stays small.
    expect(section).toContain(`${'N'.repeat(119)}…`);
    expect(section).not.toContain('N'.repeat(121));
    expect(Buffer.byteLength(page.html)).toBeLessThan(64 * 1024);

    const projects = (html: string) =>
      [...html.matchAll(/href="\/board\/projects\/(\d+)"/g)].map((m) => Number(m[1]));
    const one = await get(`/board/accounts/${big.account}`);
    expect(one.status).toBe(200);
    expect(projects(one.html)).toHaveLength(50);
    expect(one.html).toContain('120 active of 120');
    const two = await get(link(one.html, 'next')!);
    const three = await get(link(two.html, 'next')!);
    expect(projects(three.html)).toHaveLength(20);
    expect(link(three.html, 'next')).toBeUndefined();
    const all = [...projects(one.html), ...projects(two.html), ...projects(three.html)];
    expect(new Set(all).size).toBe(120);
    expect(projects((await get(link(three.html, 'prev')!)).html)).toEqual(projects(two.html));
  });

  it('counts cards from the per-status counts, exactly', async () => {
    const one = await get(`/board/accounts/${big.account}`);
    expect(one.html).toContain(`<a href="/board/projects/${big.project}">P0</a>`);
    expect(one.html).toMatch(
      /P0<\/a><\/td><td class="state-active">active<\/td><td class="num">10,050<\/td>/,
    );
  });

  it('bad cursors and unknown accounts', async () => {
    expect((await get('/board?after=abc')).status).toBe(400);
    expect((await get('/board?after=1&before=5')).status).toBe(400);
    expect((await get('/board/accounts/99999999')).status).toBe(404);
  });
});

describe(`a filter few cards pass (${STORE_KIND})`, () => {
  const titles = (html: string) =>
    [...html.matchAll(/>Scan card (\d+)<\/a>/g)].map((m) => Number(m[1]));

  it('a tag with words is found through the full-text index at once, counted in its tabs', async () => {
    const page = await get(`/board/projects/${big.scanned}?tag=rare`);
    expect(titles(page.html)).toEqual(RARE);
    expect(page.html).not.toContain('Continue searching');
    expect(page.html).toMatch(/>Open <span class="n">3<\/span>/);
    const words = await get(`/board/projects/${big.scanned}?q=scan+card+1200`);
    expect(titles(words.html).slice(0, 3)).toEqual([12009, 12008, 12007]);
  });

  it('searches at most 20,000 cards a request and goes on from where it stopped', async () => {
    const found: number[] = [];
    const searched: number[] = [];
    let path: string | undefined = `/board/projects/${big.scanned}?tag=%E2%9C%93`;
    while (path && searched.length < 20) {
      const page = await get(path);
      expect(page.status).toBe(200);
      found.push(...titles(page.html));
      const note =
        /Searched ([\d,]+) cards for these filters without filling the page: (\d+) matching/.exec(
          page.html,
        );
      path = link(page.html, 'next');
      if (!note) break;
      searched.push(Number(note[1]!.replaceAll(',', '')));
      expect(Number(note[2])).toBe(titles(page.html).length);
      expect(page.html).toContain('Continue searching →</a>');
    }
    expect(path).toBeUndefined(); // the last page reached the end
    expect(found).toEqual(RARE);
    // The budget stopped the first request (under load its time limit may stop it sooner).
    expect(searched.length).toBeGreaterThan(0);
    for (const n of searched) expect(n).toBeLessThanOrEqual(20_000);
  });
});
