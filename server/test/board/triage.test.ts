import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server.ts';
import { type Card, runCli } from '../helpers.ts';
import { testDatabaseUrl } from '../store-kind.ts';

// Triage over real HTTP on 127.0.0.1 (in-process service with the board; the CLI as a real
// process on the same data dir or database): statuses set on the board and by the CLI, what a
// report does to each status, the form token every status POST needs, history and filters.
let dataDir: string;
let databaseUrl: string | undefined;
let server: RunningServer;
let projectId: number;
let otherProjectId: number;
let ingestKey: string;
let otherKey: string;
let cookie: string;
let csrf: string;
let bearer: Record<string, string>;

const storeArgs = () => (databaseUrl ? ['--database-url', databaseUrl] : ['--data-dir', dataDir]);
const get = (path: string, headers: Record<string, string> = { cookie }) =>
  fetch(server.url + path, { headers, redirect: 'manual' });
const post = (path: string, fields: [string, string][], headers: Record<string, string> = {}) =>
  fetch(server.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
const setStatus = (card: number, status: string, extra: [string, string][] = [['csrf', csrf]]) =>
  post(`/board/projects/${projectId}/cards/${card}/status`, [['status', status], ...extra]);

async function report(title: string, tags: string[] = [], key = ingestKey) {
  const res = await fetch(`${server.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ severity: 'major', title, tags }),
  });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as { data: { id: number; status: string; occurrence_count: number } };
}
async function cards(project = projectId): Promise<Card[]> {
  const r = await runCli(['cards', 'list', '--project', String(project), '--json', ...storeArgs()]);
  expect(r.code, r.output).toBe(0);
  return JSON.parse(r.stdout) as Card[];
}
const cardOf = async (id: number) => (await cards()).find((c) => c.id === id)!;

/** A card's history as stored: kind, from, to, oldest first. */
async function historyOf(cardId: number): Promise<[string, string, string][]> {
  const sql = 'SELECT kind, from_status, to_status FROM card_events WHERE card_id = $1 ORDER BY id';
  type Row = { kind: string; from_status: string; to_status: string };
  let rows: Row[];
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    rows = (await client.query<Row>(sql, [cardId])).rows;
    await client.end();
  } else {
    const db = new Database(join(dataDir, 'svc.sqlite'), { readonly: true });
    rows = db.prepare(sql.replace('$1', '?')).all(cardId) as Row[];
    db.close();
  }
  return rows.map((r) => [r.kind, r.from_status, r.to_status]);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-triage-'));
  databaseUrl = await testDatabaseUrl();
  server = await startServer({ port: 0, dataDir, databaseUrl, board: true });
  const account = await server.admin.createAccount({ name: 'Acme', plan: 'team' });
  projectId = (await server.admin.createProject({ accountId: account.id, name: 'Web' })).id;
  otherProjectId = (await server.admin.createProject({ accountId: account.id, name: 'API' })).id;
  ingestKey = (await server.admin.createPublishableKey({ projectId, name: 'web' })).token;
  otherKey = (await server.admin.createPublishableKey({ projectId: otherProjectId, name: 'a' }))
    .token;
  const token = (await server.board!.adminTokens.create({ name: 'ann' })).token;
  bearer = { authorization: `Bearer ${token}` };
  const login = await fetch(`${server.url}/board/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, next: '/board' }).toString(),
  });
  cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const page = await (await get('/board')).text();
  csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(page)![1]!;
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a card resolved on the board', () => {
  it('returns to todo with regressions: 1 when the same error is reported again', async () => {
    const { data } = await report('Checkout failed');
    expect(data.status).toBe('todo');
    const done = await setStatus(data.id, 'done');
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`/board/projects/${projectId}/cards/${data.id}`);
    expect(await cardOf(data.id)).toMatchObject({ status: 'done', regressions: 0 });
    expect((await cardOf(data.id)).last_regressed_at).toBeNull();

    const again = await report('Checkout failed', ['env:prod', 'release:2.4.2']);
    expect(again.data).toMatchObject({ id: data.id, status: 'todo', occurrence_count: 2 });
    const card = await cardOf(data.id);
    expect(card).toMatchObject({ status: 'todo', regressions: 1, occurrence_count: 2 });
    expect(Date.parse(card.last_regressed_at!)).toBeGreaterThan(Date.now() - 60_000);
    // A further report of the reopened card is no new regression.
    expect((await report('Checkout failed')).data.status).toBe('todo');
    expect(await cardOf(data.id)).toMatchObject({ regressions: 1, occurrence_count: 3 });

    const html = await (await get(`/board/projects/${projectId}/cards/${data.id}`)).text();
    expect(html).toContain('<span class="status st-todo">To do</span>');
    expect(html).toContain('<span class="badge regressed"');
    expect(html).toMatch(
      /<dt>Regressions<\/dt><dd>1 <span class="muted">\(last .*release <code>2\.4\.2<\/code>/,
    );
    const history = /<ol class="history">(.*?)<\/ol>/s.exec(html)![1]!;
    const items = [...history.matchAll(/<li>(.*?)<\/li>/gs)].map((m) =>
      m[1]!.replace(/<[^>]+>/g, ''),
    );
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(
      /regressed reported again in release 2\.4\.2 after it was resolved: Done → To do$/,
    );
    expect(items[1]).toMatch(/ann set Done \(was To do\)$/);
  });

  it('stays ignored while its count rises, and in progress stays in progress', async () => {
    const { data } = await report('Noisy warning');
    expect((await setStatus(data.id, 'ignored')).status).toBe(303);
    for (let i = 2; i <= 4; i++) {
      const r = await report('Noisy warning');
      expect(r.data).toMatchObject({ status: 'ignored', occurrence_count: i });
    }
    expect(await cardOf(data.id)).toMatchObject({
      status: 'ignored',
      regressions: 0,
      occurrence_count: 4,
    });
    const wip = (await report('Being fixed')).data;
    await setStatus(wip.id, 'in_progress');
    expect((await report('Being fixed')).data.status).toBe('in_progress');
  });

  it('is set with the CLI too, from another process, and the running service sees it at once', async () => {
    const { data } = await report('Set from the CLI');
    const run = (...args: string[]) => runCli(['cards', 'set-status', ...args, ...storeArgs()]);
    const r = await run('--card', String(data.id), '--status', 'done');
    expect(r.code, r.output).toBe(0);
    expect(r.stdout).toBe(`Card #${data.id} "Set from the CLI" is now done (was todo).\n`);
    expect((await report('Set from the CLI')).data.status).toBe('todo'); // a regression
    expect(await cardOf(data.id)).toMatchObject({ status: 'todo', regressions: 1 });
    const html = await (await get(`/board/projects/${projectId}/cards/${data.id}`)).text();
    expect(html).toContain('<strong>cli</strong> set');

    for (const [args, message] of [
      [['--card', '999999', '--status', 'done'], 'No card with id 999999.'],
      [
        ['--card', String(data.id), '--status', 'resolved'],
        '--status must be one of todo, in_progress, done, ignored.',
      ],
      [['--status', 'done'], '--card must be a positive integer id.'],
    ] as const) {
      const bad = await run(...args);
      expect(bad.code).toBe(1);
      expect(bad.output).toContain(`svc-server: ${message}`);
    }
  });
});

describe('at the same time', () => {
  it('board changes, CLI changes and reports of one card keep one history chain', async () => {
    const { data } = await report('Contended card');
    const statuses = ['done', 'ignored', 'done', 'in_progress', 'todo'];
    let reports = 1;
    for (let round = 0; round < 6; round++) {
      const cli = runCli([
        'cards',
        'set-status',
        '--card',
        String(data.id),
        '--status',
        statuses[(round + 3) % statuses.length]!,
        ...storeArgs(),
      ]);
      const results = await Promise.all([
        setStatus(data.id, statuses[round % statuses.length]!),
        report('Contended card'),
        report('Contended card'),
        setStatus(data.id, 'done'),
        report('Contended card'),
      ]);
      reports += 3;
      expect((await cli).code).toBe(0);
      expect(
        results.filter((r) => r instanceof Response).map((r) => (r as Response).status),
      ).toEqual([303, 303]);
    }
    const history = await historyOf(data.id);
    let status = 'todo';
    for (const [i, [kind, from, to]] of history.entries()) {
      expect([i, from]).toEqual([i, status]);
      expect(to).not.toBe(from);
      if (kind === 'regression') expect([from, to]).toEqual(['done', 'todo']);
      status = to;
    }
    const card = await cardOf(data.id);
    expect(card).toMatchObject({
      status,
      occurrence_count: reports,
      regressions: history.filter(([kind]) => kind === 'regression').length,
    });
    expect(card.regressions).toBeGreaterThan(0);
  });
});

describe('status POSTs', () => {
  it('without the form token are refused with 403 and change nothing', async () => {
    const { data } = await report('Guarded card');
    for (const [extra, headers] of [
      [[], {}],
      [[['csrf', '0'.repeat(64)]], {}],
      [[['csrf', csrf.slice(1)]], {}],
      [[['csrf', csrf]], { 'sec-fetch-site': 'cross-site' }],
      [[['csrf', csrf]], { origin: 'https://evil.test' }],
    ] as [[string, string][], Record<string, string>][]) {
      const res = await post(
        `/board/projects/${projectId}/cards/${data.id}/status`,
        [['status', 'done'], ...extra],
        headers,
      );
      expect(res.status, JSON.stringify([extra, headers])).toBe(403);
      expect(await res.text()).toContain('nothing changed');
      const bulk = await post(
        `/board/projects/${projectId}/cards/status`,
        [['status', 'done'], ['card', String(data.id)], ...extra],
        headers,
      );
      expect(bulk.status).toBe(403);
    }
    expect(await cardOf(data.id)).toMatchObject({ status: 'todo' });
    const html = await (await get(`/board/projects/${projectId}/cards/${data.id}`)).text();
    expect(html).toContain('No status changes yet.');
    // Without a session nothing gets in; with an admin token as bearer (no cookie) no form token
    // is needed: such a client carries no ambient credential.
    const anonymous = await post(
      `/board/projects/${projectId}/cards/${data.id}/status`,
      [['status', 'done']],
      { cookie: '' },
    );
    expect(anonymous.status).toBe(401);
    const api = await post(
      `/board/projects/${projectId}/cards/${data.id}/status`,
      [['status', 'done']],
      { cookie: '', ...bearer },
    );
    expect(api.status).toBe(303);
    expect(await cardOf(data.id)).toMatchObject({ status: 'done' });
  });

  it('answer a bad status with 400 and a card of another project with 404', async () => {
    const { data } = await report('Strict card');
    expect((await setStatus(data.id, 'resolved')).status).toBe(400);
    const other = (await report('Elsewhere', [], otherKey)).data;
    expect((await setStatus(other.id, 'done')).status).toBe(404);
    expect((await cards(otherProjectId))[0]).toMatchObject({ status: 'todo' });
  });
});

describe('the cards list', () => {
  it("sets the checked cards in bulk (only the project's) and returns to the same view", async () => {
    const a = (await report('Bulk one')).data;
    const b = (await report('Bulk two')).data;
    const other = (await report('Other project card', [], otherKey)).data;
    const back = `/board/projects/${projectId}?sort=title&dir=asc`;
    const res = await post(`/board/projects/${projectId}/cards/status`, [
      ['csrf', csrf],
      ['status', 'ignored'],
      ['card', String(a.id)],
      ['card', String(b.id)],
      ['card', String(other.id)],
      ['back', back],
    ]);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(back);
    expect(await cardOf(a.id)).toMatchObject({ status: 'ignored' });
    expect(await cardOf(b.id)).toMatchObject({ status: 'ignored' });
    expect((await cards(otherProjectId)).find((c) => c.id === other.id)).toMatchObject({
      status: 'todo',
    });
    const offsite = await post(`/board/projects/${projectId}/cards/status`, [
      ['csrf', csrf],
      ['status', 'todo'],
      ['back', 'https://evil.test/'],
    ]);
    expect(offsite.headers.get('location')).toBe(`/board/projects/${projectId}`);
    const tooMany = Array.from(
      { length: 101 },
      (_, i) => ['card', String(i + 1)] as [string, string],
    );
    const big = await post(`/board/projects/${projectId}/cards/status`, [
      ['csrf', csrf],
      ['status', 'done'],
      ...tooMany,
    ]);
    expect(big.status).toBe(400);
  });

  it('shows open cards by default, filters by status and counts cards per status', async () => {
    const all = await cards();
    const count = (status: string) => all.filter((c) => c.status === status).length;
    const titles = async (query: string) => {
      const html = await (await get(`/board/projects/${projectId}${query}`)).text();
      return [...html.matchAll(/<td class="title"><a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]).sort();
    };
    const expected = (statuses: string[]) =>
      all
        .filter((c) => statuses.includes(c.status))
        .map((c) => c.title)
        .sort();
    expect(await titles('')).toEqual(expected(['todo', 'in_progress']));
    expect(await titles('?status=done')).toEqual(expected(['done']));
    expect(await titles('?status=ignored')).toEqual(expected(['ignored']));
    expect(await titles('?status=all')).toEqual(
      expected(['todo', 'in_progress', 'done', 'ignored']),
    );
    expect(count('ignored')).toBeGreaterThanOrEqual(3);

    const html = await (await get(`/board/projects/${projectId}`)).text();
    const tabs = [
      ...html.matchAll(
        /<a href="[^"]*"(?: class="on" aria-current="page")?>([^<]+) <span class="n">(\d+)<\/span><\/a>/g,
      ),
    ].map((m) => [m[1], Number(m[2])]);
    expect(tabs).toEqual([
      ['Open', count('todo') + count('in_progress')],
      ['To do', count('todo')],
      ['In progress', count('in_progress')],
      ['Done', count('done')],
      ['Ignored', count('ignored')],
      ['All', all.length],
    ]);
    expect((await get(`/board/projects/${projectId}?status=resolved`)).status).toBe(400);
    const empty = await (await get(`/board/projects/${otherProjectId}?status=in_progress`)).text();
    expect(empty).toContain('No cards match these filters.');
    expect(empty).toContain('In progress <span class="n">0</span>');
  });
});
