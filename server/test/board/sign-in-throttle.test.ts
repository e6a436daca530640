import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server.ts';
import { testDatabaseUrl } from '../store-kind.ts';

// Wrong admin tokens over real HTTP, on SQLite and (server-pg) PostgreSQL, with an injected
// clock: counted per client and per token presented, a live token never refused, and behind a
// trusted reverse proxy the client its X-Forwarded-For names (never a header from anyone else).
let clock = Date.UTC(2026, 10, 28, 12, 0, 0);
let dataDir: string;
let server: RunningServer;
let token: string;
const PROXY = '127.0.0.9';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-sign-in-'));
  server = await startServer({
    port: 0,
    dataDir,
    databaseUrl: await testDatabaseUrl(),
    board: true,
    now: () => clock,
    trustedProxies: [PROXY],
  });
  token = (await server.board!.adminTokens.create({ name: 'ops' })).token;
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Answer = { status: number; retryAfter?: string; body: string };

/** A sign-in form post (or, with `bearer`, a page asked with the token) from `from`. */
function attempt(
  value: string,
  from: string,
  opts: { forwardedFor?: string; bearer?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = opts.bearer
      ? { authorization: `Bearer ${value}` }
      : { 'content-type': 'application/x-www-form-urlencoded' };
    if (opts.forwardedFor) headers['x-forwarded-for'] = opts.forwardedFor;
    const req = request(`${server.url}/board${opts.bearer ? '' : '/login'}`, {
      method: opts.bearer ? 'GET' : 'POST',
      localAddress: from,
      headers,
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], body }),
      );
    });
    req.on('error', reject);
    req.end(
      opts.bearer ? undefined : new URLSearchParams({ token: value, next: '/board' }).toString(),
    );
  });
}
const wrong = (n: number) => `svc_adm_${String(n).padStart(48, '0')}`;
const statuses = async (tries: (() => Promise<Answer>)[]) => {
  const out: number[] = [];
  for (const t of tries) out.push((await t()).status);
  return out;
};

describe('wrong admin tokens', () => {
  it('per client: 10, then 429 with Retry-After; a live token still signs in, by form or bearer', async () => {
    const from = '127.0.0.2';
    expect(
      await statuses(Array.from({ length: 10 }, (_, i) => () => attempt(wrong(i), from))),
    ).toEqual(Array(10).fill(401));
    const limited = await attempt(wrong(99), from);
    expect([limited.status, limited.retryAfter]).toEqual([429, '6']);
    expect(limited.body).toContain('try again in 6 s. A live admin token still signs in.');
    expect((await attempt(wrong(98), from, { bearer: true })).status).toBe(429);
    expect((await attempt(token, from)).status).toBe(303);
    expect((await attempt(token, from, { bearer: true })).status).toBe(200);
    // Another client is not held by this one's guesses.
    expect((await attempt(wrong(97), '127.0.0.3')).status).toBe(401);
    // One attempt comes back every 6 s.
    clock += 6000;
    expect((await attempt(wrong(96), from)).status).toBe(401);
    expect((await attempt(wrong(95), from)).status).toBe(429);
    clock += 60_000;
  });

  it('per token: one wrong token from 10 clients, then 429 for it from any client, not for others', async () => {
    const stale = wrong(1234);
    const clients = Array.from({ length: 10 }, (_, i) => `127.0.1.${i + 1}`);
    expect(await statuses(clients.map((c) => () => attempt(stale, c)))).toEqual(
      Array(10).fill(401),
    );
    expect((await attempt(stale, '127.0.1.50')).status).toBe(429);
    expect((await attempt(wrong(1235), '127.0.1.51')).status).toBe(401);
    clock += 60_000;
  });

  it('behind a trusted proxy, each forwarded client has its own count; an admin is never locked out', async () => {
    const forwarded = (n: number, client: string) => () =>
      attempt(wrong(2000 + n), PROXY, { forwardedFor: `${client}, ${PROXY}` });
    expect(
      await statuses(Array.from({ length: 11 }, (_, i) => forwarded(i, '203.0.113.5'))),
    ).toEqual([...Array(10).fill(401), 429]);
    // Someone else behind the same proxy, and the admin with the live token, are unaffected.
    expect((await forwarded(50, '203.0.113.6')()).status).toBe(401);
    expect((await attempt(token, PROXY, { forwardedFor: '203.0.113.5' })).status).toBe(303);
    clock += 60_000;
  });

  it('X-Forwarded-For from a client that is not a trusted proxy is ignored', async () => {
    const spoofed = Array.from(
      { length: 11 },
      (_, i) => () =>
        attempt(wrong(3000 + i), '127.0.0.4', { forwardedFor: `198.51.100.${i + 1}` }),
    );
    expect(await statuses(spoofed)).toEqual([...Array(10).fill(401), 429]);
    clock += 60_000;
  });
});
