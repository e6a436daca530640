import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server.ts';
import { runCli } from '../../helpers.ts';
import { requirePostgres } from '../../store-kind.ts';

// PostgreSQL only: two instances of the service on one database, reports taken by one and the
// board read (and changed) on the other. A development report leaves the production view as it
// was; a card resolved in a release on one instance ignores an older release reported to the
// other and regresses on a newer one; a search finds what the other ingested; wrong admin tokens
// are counted for both; and the CLI's faults on PostgreSQL are one line each.
let url: string;
let a: RunningServer;
let b: RunningServer;
let key: string;
let bearer: Record<string, string>;
let projectId: number;
const dirs: string[] = [];

beforeAll(async () => {
  url = await requirePostgres();
  const start = () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-pg-two-'));
    dirs.push(dataDir);
    return startServer({ port: 0, dataDir, databaseUrl: url, board: true });
  };
  a = await start();
  b = await start();
  const account = await a.admin.createAccount({ name: 'Acme', plan: 'team' });
  projectId = (await a.admin.createProject({ accountId: account.id, name: 'Web' })).id;
  key = (await a.admin.createPublishableKey({ projectId, name: 'web' })).token;
  bearer = {
    authorization: `Bearer ${(await b.board!.adminTokens.create({ name: 'ann' })).token}`,
  };
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function report(title: string, tags: string[], description?: string) {
  const res = await fetch(`${a.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ severity: 'major', title, tags, description }),
  });
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { data: { id: number; status: string } }).data;
}
const page = async (path: string) => {
  const res = await fetch(b.url + path, { headers: bearer, redirect: 'manual' });
  return { status: res.status, html: await res.text() };
};
/** A cards page's rows: title, count, last seen's machine time. */
const rows = (html: string) =>
  [...html.matchAll(/<tr><td class="pick">.*?<\/tr>/gs)].map((m) => {
    const row = m[0];
    return [
      /<td class="title"><a [^>]*>([^<]*)</.exec(row)![1],
      /<td class="num">([\d,]+)</.exec(row)![1],
      [...row.matchAll(/datetime="([^"]+)"/g)].map((t) => t[1]).join(' '),
    ];
  });
const tabs = (html: string) =>
  [...html.matchAll(/<nav class="statuses".*?<\/nav>/gs)][0]![0].replace(/<[^>]+>/g, '').trim();

describe('two instances on one PostgreSQL', () => {
  it('a development report leaves the production view untouched', async () => {
    const card = await report('Checkout failed', ['env:production']);
    await report('Checkout failed', ['env:production']);
    const before = await page(`/board/projects/${projectId}?env=production`);
    expect(rows(before.html)).toEqual([['Checkout failed', '2', expect.any(String)]]);
    for (let i = 0; i < 3; i++) await report('Checkout failed', ['env:development']);
    await report('Only on a laptop', ['env:development']);
    const after = await page(`/board/projects/${projectId}?env=production`);
    expect(rows(after.html)).toEqual(rows(before.html));
    expect(tabs(after.html)).toBe(tabs(before.html));
    const dev = await page(`/board/projects/${projectId}?env=development`);
    expect(rows(dev.html).map((r) => r.slice(0, 2))).toEqual([
      ['Only on a laptop', '1'],
      ['Checkout failed', '3'],
    ]);
    const cardPage = await page(`/board/projects/${projectId}/cards/${card.id}?env=production`);
    expect(cardPage.html).toContain(
      '<dt>Occurrences</dt><dd>2 in production · 5 in all environments',
    );
  });

  it('resolved in a release on one instance: an older release reported to the other leaves it done, a newer one reopens it', async () => {
    const card = await report('Payment declined', ['env:production', 'release:2.0.0']);
    const form = new URLSearchParams({ status: 'done', env: 'production', release: '2.1.0' });
    const set = await fetch(`${b.url}/board/projects/${projectId}/cards/${card.id}/status`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    expect(set.status).toBe(303);
    expect((await report('Payment declined', ['env:production', 'release:2.0.0'])).status).toBe(
      'done',
    );
    expect((await report('Payment declined', ['env:development', 'release:2.2.0'])).status).toBe(
      'done',
    );
    expect((await report('Payment declined', ['env:production', 'release:2.1.1'])).status).toBe(
      'todo',
    );
    const history = (await page(`/board/projects/${projectId}/cards/${card.id}`)).html;
    expect(history.replace(/<[^>]+>/g, '')).toContain(
      'reported again in release 2.1.1 from production after it was resolved (a newer release than it was resolved in, by semver)',
    );
    expect(history.replace(/<[^>]+>/g, '')).toContain(
      'ann set Done in production, from release 2.1.0 on',
    );
  });

  it('a search on one instance finds the stack of a report the other took', async () => {
    await report(
      'Timeout',
      ['env:production'],
      'Error: upstream\n    at fetchRates (src/rates/client.ts:77:9)',
    );
    const found = await page(
      `/board/projects/${projectId}?env=production&q=${encodeURIComponent('rates/client.ts:77')}`,
    );
    expect(rows(found.html).map((r) => r[0])).toEqual(['Timeout']);
    expect(tabs(found.html)).toContain('Open 1');
  });

  it('wrong admin tokens are counted for both instances', async () => {
    const attempt = (server: RunningServer, n: number) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${server.url}/board`, {
          localAddress: '127.0.0.7',
          headers: { authorization: `Bearer svc_adm_${String(n).padStart(48, '0')}` },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) seen.push(await attempt(i % 2 ? a : b, i));
    expect(seen).toEqual(Array(10).fill(401));
    expect([await attempt(a, 10), await attempt(b, 11)]).toEqual([429, 429]);
  });

  it('the CLI on PostgreSQL: an unreachable database or a wrong password is one line, no stack', async () => {
    for (const [database, said] of [
      [
        'postgres://svc:secret@127.0.0.1:1/svc',
        /^svc-server: cannot use postgres:\/\/svc:\*+@127\.0\.0\.1:1\/svc: connect ECONNREFUSED 127\.0\.0\.1:1\.$/,
      ],
      [
        url.replace(/:[^:@/]+@/, ':wrong@'),
        /^svc-server: password authentication failed for user "postgres"$/,
      ],
      [
        url.replace(/\/[^/]+$/, '/no_such_db'),
        /^svc-server: database "no_such_db" does not exist$/,
      ],
    ] as const) {
      const r = await runCli(['cards', 'list', '--project', '1', '--database-url', database]);
      expect([database, r.code]).toEqual([database, 1]);
      expect(r.output.trim().split('\n')).toEqual([expect.stringMatching(said)]);
      expect(r.output).not.toContain('secret');
    }
  });
});
