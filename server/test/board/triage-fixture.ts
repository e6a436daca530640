import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../src/store/sqlite/driver.ts';
import pg from 'pg';
import { expect } from 'vitest';
import { startServer } from '../../src/server.ts';
import { allCards, type Card } from '../helpers.ts';
import { testDatabaseUrl } from '../store-kind.ts';

// The service the triage suites drive over real HTTP on 127.0.0.1: in-process with the board, on
// a temp data dir or (in `server-pg`) a fresh PostgreSQL database, two projects, a signed-in
// browser session (cookie and form token) and an admin token as bearer; the CLI runs as a real
// process on the same data dir or database.
export async function startTriage() {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-triage-'));
  const databaseUrl = await testDatabaseUrl();
  const server = await startServer({ port: 0, dataDir, databaseUrl, board: true });
  const account = await server.admin.createAccount({ name: 'Acme', plan: 'team' });
  const projectId = (await server.admin.createProject({ accountId: account.id, name: 'Web' })).id;
  const otherProjectId = (await server.admin.createProject({ accountId: account.id, name: 'API' }))
    .id;
  const ingestKey = (await server.admin.createPublishableKey({ projectId, name: 'web' })).token;
  const otherKey = (
    await server.admin.createPublishableKey({ projectId: otherProjectId, name: 'a' })
  ).token;
  const token = (await server.board!.adminTokens.create({ name: 'ann' })).token;
  const login = await fetch(`${server.url}/board/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, next: '/board' }).toString(),
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;

  const storeArgs = () => (databaseUrl ? ['--database-url', databaseUrl] : ['--data-dir', dataDir]);
  const get = (path: string, headers: Record<string, string> = { cookie }) =>
    fetch(server.url + path, { headers, redirect: 'manual' });
  const page = await (await get('/board')).text();
  const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(page)![1]!;
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
  const cards = (project = projectId): Promise<Card[]> => allCards(project, storeArgs());
  /** Rows of a query on the service's database (`$1`, `$2`… placeholders on both stores). */
  async function rows<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as Row[];
      } finally {
        await client.end();
      }
    }
    const db = openSqlite(join(dataDir, 'svc.sqlite'), { readonly: true });
    try {
      return db.prepare(sql.replace(/\$\d+/g, '?')).all(...params) as Row[];
    } finally {
      db.close();
    }
  }
  /** A card's history as stored: kind, from, to, oldest first. */
  async function historyOf(cardId: number): Promise<[string, string, string][]> {
    type Row = { kind: string; from_status: string; to_status: string };
    const found = await rows<Row>(
      'SELECT kind, from_status, to_status FROM card_events WHERE card_id = $1 ORDER BY id',
      [cardId],
    );
    return found.map((r) => [r.kind, r.from_status, r.to_status]);
  }
  return {
    server,
    projectId,
    otherProjectId,
    otherKey,
    csrf,
    bearer: { authorization: `Bearer ${token}` },
    storeArgs,
    get,
    post,
    setStatus,
    report,
    cards,
    cardOf: async (id: number) => (await cards()).find((c) => c.id === id)!,
    historyOf,
    rows,
    databaseUrl,
    dataDir,
    ingestKey,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type Triage = Awaited<ReturnType<typeof startTriage>>;
