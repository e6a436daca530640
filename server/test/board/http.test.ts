import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { type RunningServer, startServer } from '../../src/server.ts';
import { testDatabaseUrl } from '../store-kind.ts';

// The board over real HTTP on 127.0.0.1 (in-process service, injected clock for session expiry):
// who gets in, what the cookie looks like, the headers every page carries, and bad input.
let clock = Date.UTC(2026, 10, 23, 12, 0, 0);
let dataDir: string;
let databaseUrl: string | undefined;
let server: RunningServer;
let projectId: number;
let ingestKey: string;
let token: string;

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { headers, redirect: 'manual' });
const bearer = () => ({ authorization: `Bearer ${token}` });
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
});
const login = (value: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/board/login`, form({ token: value, next: '/board/projects/1' }, headers));
const key = (value: unknown[]) => Buffer.from(JSON.stringify(value)).toString('base64url');
const cookieOf = (res: Response) => res.headers.get('set-cookie')!.split(';')[0]!;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-board-http-'));
  databaseUrl = await testDatabaseUrl();
  server = await startServer({ port: 0, dataDir, databaseUrl, board: true, now: () => clock });
  const account = await server.admin.createAccount({ name: 'Acme', plan: 'team' });
  projectId = (await server.admin.createProject({ accountId: account.id, name: 'Web' })).id;
  ingestKey = (await server.admin.createPublishableKey({ projectId, name: 'web' })).token;
  token = (await server.board!.adminTokens.create({ name: 'ops' })).token;
  const res = await fetch(`${server.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      severity: 'critical',
      title: '<script>alert("t")</script>',
      tags: ['"><img src=x onerror=alert(1)>'],
      description: 'javascript:alert(1)',
    }),
  });
  expect(res.status).toBe(201);
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('access', () => {
  it('is off unless asked for', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-board-off-'));
    const plain = await startServer({ port: 0, dataDir: dir });
    try {
      expect(plain.board).toBeUndefined();
      const res = await fetch(`${plain.url}/board`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
    } finally {
      await plain.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends browsers without a token to the sign-in form, and refuses other requests with 401', async () => {
    for (const path of [
      '/board',
      `/board/projects/${projectId}`,
      `/board/projects/${projectId}/cards/1`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location')).toBe(`/board/login?next=${encodeURIComponent(path)}`);
      expect(await res.text()).not.toContain('Acme');
    }
    expect((await fetch(`${server.url}/board`, { method: 'HEAD' })).status).toBe(401);
    const logout = await fetch(`${server.url}/board/logout`, form({ csrf: 'x' }));
    expect(logout.status).toBe(401);
    expect(logout.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('never opens with an ingestion key or a malformed or revoked token', async () => {
    const secret = await server.admin.createSecretKey({ projectId, name: 's' });
    const spare = await server.board!.adminTokens.create({ name: 'spare' });
    await server.board!.adminTokens.revoke(spare.id);
    for (const value of [
      ingestKey,
      secret.keyId,
      secret.signingSecret,
      spare.token,
      `${token}x`,
      '',
    ]) {
      clock += 60_000; // a minute apart: the per-address sign-in throttle (bounded.test.ts) refills
      const res = await get('/board', { authorization: `Bearer ${value}` });
      expect(res.status, value).toBe(401);
      expect(await res.text()).not.toContain('Acme');
      expect((await login(value)).status, value).toBe(401);
    }
    // A bad bearer is refused even next to a valid session cookie.
    clock += 60_000;
    const cookie = cookieOf(await login(token));
    expect((await get('/board', { cookie, authorization: `Bearer ${ingestKey}` })).status).toBe(
      401,
    );
  });

  it('opens with the admin token as a bearer', async () => {
    const res = await get('/board', bearer());
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('Acme');
    expect(body).not.toContain('Sign out'); // no cookie session, nothing to sign out of
  });
});

describe('sessions', () => {
  it('sets an HttpOnly, SameSite=Strict cookie scoped to /board; Secure over HTTPS', async () => {
    const res = await login(token);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/board/projects/1');
    const flags = res.headers.get('set-cookie')!.split('; ');
    expect(flags[0]).toMatch(/^svc_board=[0-9a-f]{64}$/);
    expect(flags.slice(1).sort()).toEqual(['HttpOnly', 'Path=/board', 'SameSite=Strict']);
    expect(flags[0]).not.toContain(token);
    const secure = await login(token, { 'x-forwarded-proto': 'https' });
    expect(secure.headers.get('set-cookie')!.split('; ')).toContain('Secure');
    const page = await get(`/board/projects/${projectId}`, { cookie: cookieOf(res) });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Sign out');
  });

  it('keeps only hashes of tokens and session ids on disk', async () => {
    const cookie = cookieOf(await login(token));
    const files = databaseUrl
      ? [await dumpTables(databaseUrl, ['admin_tokens', 'board_sessions'])]
      : readdirSync(dataDir).map((f) => readFileSync(join(dataDir, f)).toString('latin1'));
    for (const secret of [token, token.slice(8), cookie.split('=')[1]!]) {
      expect(files.some((f) => f.includes(secret))).toBe(false);
    }
  });

  it('refuses a sign-in posted from another site', async () => {
    expect((await login(token, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await login(token, { origin: 'https://evil.test' })).status).toBe(403);
    const ok = await login(token, { 'sec-fetch-site': 'same-origin', origin: server.url });
    expect(ok.status).toBe(303);
  });

  it('signs out only with the form token, and the session then ends', async () => {
    const cookie = cookieOf(await login(token));
    const html = await (await get('/board', { cookie })).text();
    const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(html)![1]!;
    const logout = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/board/logout`, form(fields, { cookie, ...headers }));
    expect((await logout({ csrf: '0'.repeat(64) })).status).toBe(403);
    expect((await logout({})).status).toBe(403);
    expect((await logout({ csrf }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const done = await logout({ csrf });
    expect(done.status).toBe(303);
    expect(done.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await get('/board', { cookie })).status).toBe(303);
  });

  it('ends sessions when their token is revoked or after 12 hours', async () => {
    const extra = await server.board!.adminTokens.create({ name: 'temp' });
    const cookie = cookieOf(await login(extra.token));
    expect((await get('/board', { cookie })).status).toBe(200);
    await server.board!.adminTokens.revoke(extra.id);
    expect((await get('/board', { cookie })).status).toBe(303);

    const later = cookieOf(await login(token));
    clock += 12 * 3_600_000 - 1000;
    expect((await get('/board', { cookie: later })).status).toBe(200);
    clock += 2000;
    expect((await get('/board', { cookie: later })).status).toBe(303);
  });
});

describe('pages', () => {
  it('carry a strict CSP and no CORS, and are not cached', async () => {
    for (const path of [
      '/board',
      `/board/projects/${projectId}`,
      `/board/projects/${projectId}/cards/1`,
      '/board/login',
    ]) {
      const res = await get(path, { ...bearer(), origin: 'https://evil.test' });
      expect(res.status, path).toBeLessThan(400);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toMatch(/script-src|unsafe-inline|unsafe-eval/);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
      if (res.status === 200) {
        const body = await res.text();
        const tags = [...body.matchAll(/<[a-z][^>]*>/gi)].map((m) => m[0]);
        expect(tags.length).toBeGreaterThan(10);
        for (const tag of tags) expect(tag).not.toMatch(/^<script|\s(?:style|on[a-z]+)=/i);
      }
    }
  });

  it('escape report values', async () => {
    const list = await (await get(`/board/projects/${projectId}`, bearer())).text();
    const card = await (await get(`/board/projects/${projectId}/cards/1`, bearer())).text();
    for (const body of [list, card]) {
      expect(body).toContain('&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;');
      expect(body).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
      expect(body).not.toContain('<img');
    }
  });

  it('serve the stylesheet and icon to anyone, cached by content hash', async () => {
    const html = await (await get('/board/login')).text();
    for (const path of [...html.matchAll(/(?:href)="(\/board\/assets\/[^"]+)"/g)].map(
      (m) => m[1]!,
    )) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
  });

  it('answer unknown ids with 404 and bad parameters with 400, as HTML', async () => {
    for (const [path, status] of [
      [`/board/projects/999`, 404],
      [`/board/projects/x`, 404],
      [`/board/projects/${projectId}/cards/999`, 404],
      [`/board/projects/${projectId}/cards/1/variants/999`, 404],
      [`/board/projects/99999999999999999999`, 404],
      [`/board/nothing`, 404],
      [`/board/projects/${projectId}?sort=nope`, 400],
      [`/board/projects/${projectId}?after=bm90IGpzb24`, 400],
      [`/board/projects/${projectId}?sort=severity&after=WzEsMiwzXQ`, 400],
      [`/board/projects/${projectId}?q=${'x'.repeat(300)}`, 400],
      // Keys of the wrong type for the sort's columns, and U+0000 in filters and keys.
      [`/board/projects/${projectId}?after=${key(['abc', 1])}`, 400],
      [`/board/projects/${projectId}?after=${key([1.5, 1])}`, 400],
      [`/board/projects/${projectId}?sort=title&after=${key(['a\u0000', 1])}`, 200],
      [`/board/projects/${projectId}?q=a%00b`, 200],
      [`/board/projects/${projectId}?tag=a%00b`, 200],
    ] as const) {
      const res = await get(path, bearer());
      expect(res.status, path).toBe(status);
      expect(res.headers.get('content-type'), path).toContain('text/html');
    }
  });
});

/** Every row of `tables` as text (PostgreSQL: what the database holds). */
async function dumpTables(url: string, tables: string[]): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let out = '';
    for (const t of tables) {
      const { rows } = await client.query(`SELECT ${t}::text AS row FROM ${t}`);
      out += rows.map((r: { row: string }) => r.row).join('\n');
    }
    return out;
  } finally {
    await client.end();
  }
}
