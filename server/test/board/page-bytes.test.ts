import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../src/store/sqlite/driver.ts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/generated/limits.gen.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import { STORE_KIND, testDatabaseUrl } from '../store-kind.ts';

// The board's pages at their largest, on both stores: every report value at its limit and made of
// the characters that weigh most once escaped (`"` is 6 bytes of HTML; an emoji 12 bytes in a URL),
// descriptions of 65,535 such characters or of 10,922 tiny stack frames, 20 variants of 65,002
// characters with
// a 255-character file name, 200 tags a card, 50 such cards, 520 history entries by an admin
// token of the longest name, 10,000-character account and project names, and the longest text
// filter. Every page stays within its byte budget, and the text cut from a page is one link away.
const Q = '"'; // 6 bytes once escaped: the heaviest character in text and attributes
const MiB = 1024 * 1024;
const BUDGET = { list: 320 * 1024, card: MiB, variant: 300 * 1024, history: 160 * 1024 };
const title = (i: number) => `${Q.repeat(LIMITS.titleMax - 3)}${String(i).padStart(3, '0')}`;
/** A tag of 50 code points, 49 of them one emoji (12 bytes in a URL), the last telling it apart. */
const tag = (i: number) => `${'😀'.repeat(LIMITS.tagMax - 1)}${String.fromCodePoint(0x1f300 + i)}`;
/** The first card's: the most bytes of HTML; the others': 10,922 tiny stack frames each. */
const description = (i: number) =>
  i === 0
    ? Q.repeat(LIMITS.descriptionMax)
    : `${'\n at "'.repeat(10_922)}${String(i).padStart(3, '0')}`;
const variantBody = (i: number) => `${String(i).padStart(2, '0')}${Q.repeat(65_000)}`;

let dataDir: string;
let databaseUrl: string | undefined;
let server: RunningServer;
let token: string;
let projectId: number;
let cardId: number;
let ingestKey: string;

const get = async (path: string) => {
  const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body,
    bytes: Buffer.byteLength(body),
  };
};
async function report(body: Record<string, unknown>) {
  const res = await fetch(`${server.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ severity: 'critical', priority: 'high', ...body }),
  });
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { data: { id: number } }).data.id;
}
/** History rows straight into the store's database (setup only; the board reads them like any). */
async function seedHistory(card: number, rows: number, actor: string) {
  const values = (i: number) => [card, 1_000 + i, 'status', 'todo', 'in_progress', actor];
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    for (let i = 0; i < rows; i++) {
      await client.query(
        `INSERT INTO card_events (card_id, at, kind, from_status, to_status, actor)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        values(i),
      );
    }
    await client.end();
  } else {
    const db = openSqlite(join(dataDir, 'svc.sqlite'));
    const insert = db.prepare(
      'INSERT INTO card_events (card_id, at, kind, from_status, to_status, actor) VALUES (?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run(...values(i));
    })();
    db.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-board-bytes-'));
  databaseUrl = await testDatabaseUrl();
  const big = { burstPerMinute: 1e6, dailyEvents: 1e6 };
  server = await startServer({ port: 0, dataDir, databaseUrl, board: true, plans: { team: big } });
  const account = await server.admin.createAccount({ name: Q.repeat(10_000), plan: 'team' });
  projectId = (await server.admin.createProject({ accountId: account.id, name: Q.repeat(10_000) }))
    .id;
  ingestKey = (await server.admin.createPublishableKey({ projectId, name: 'web' })).token;
  token = (await server.board!.adminTokens.create({ name: Q.repeat(100) })).token;
  const tags = Array.from({ length: LIMITS.tagsPerCard }, (_, i) => tag(i));
  for (let i = 0; i < 50; i++) {
    const first = { title: title(i), description: description(i), tags: tags.slice(0, 100) };
    const id = await report(first);
    await report({ ...first, tags: tags.slice(100) });
    if (i === 0) cardId = id;
  }
  const file = Q.repeat(LIMITS.fileNameMax);
  for (let v = 0; v < LIMITS.variantCap + 2; v++) {
    await report({
      title: title(0),
      description: variantBody(v),
      file_name: file,
      line_number: v + 1,
    });
  }
  await seedHistory(cardId, 520, Q.repeat(100));
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const href = (html: string, text: string) =>
  new RegExp(`<a (?:rel="\\w+" )?href="([^"]+)">${text}`).exec(html)?.[1]?.replaceAll('&amp;', '&');

describe(`page bytes at their largest (${STORE_KIND})`, () => {
  it(`cards list: 50 cards of 200 tags, the longest filter: within ${BUDGET.list / 1024} kB`, async () => {
    const q = encodeURIComponent(Q.repeat(LIMITS.titleMax - 3));
    const list = await get(`/board/projects/${projectId}?status=all&q=${q}`);
    expect(list.status).toBe(200);
    expect(list.body.match(/<tr><td class="pick">/g)).toHaveLength(50);
    expect(list.body).toContain('<span class="muted">+197</span>'); // 3 of 200 tags a row
    expect(list.bytes).toBeLessThan(BUDGET.list);
  });

  it('card page: the heaviest description, 20 variants, 520 history entries: within 1 MiB', async () => {
    const card = await get(`/board/projects/${projectId}/cards/${cardId}`);
    expect(card.status).toBe(200);
    expect(card.bytes).toBeLessThan(BUDGET.card);
    expect(card.body.match(/<details class="variant"/g)).toHaveLength(LIMITS.variantCap);
    expect(card.body).toContain('<strong>Other variants</strong>');
    expect(card.body.match(/<a class="tag"/g)).toHaveLength(LIMITS.tagsPerCard);
    expect(card.body.match(/<li>[^<]*<time/g)).toHaveLength(20); // the latest history entries
    expect(card.body).toMatch(/Showing [\d,]+ of 65,535 characters\./);
    // What the page leaves out is a link away: the whole description as sent, as text.
    const whole = await get(href(card.body, 'The whole description as text')!);
    expect([whole.status, whole.type]).toEqual([200, 'text/plain; charset=utf-8']);
    expect(whole.body).toBe(description(0));
    // 10,922 stack frames would be 874 kB of markup: shown as plain text instead, whole.
    const frames = await get(`/board/projects/${projectId}/cards/${cardId + 2}`);
    const block = frames.body.slice(frames.body.indexOf('<h2>Description'));
    expect(
      block.startsWith(
        '<h2>Description <span class="muted">(code)</span></h2>\n<pre class="plain">',
      ),
    ).toBe(true);
    expect(frames.body.includes('The whole description as text')).toBe(false);
    expect(frames.bytes).toBeLessThan(BUDGET.card);
    expect(href(card.body, 'The whole history →')).toBe(
      `/board/projects/${projectId}/cards/${cardId}/history`,
    );
  });

  it(`variant page: 65,002 characters that escape to 6 bytes each: within ${BUDGET.variant / 1024} kB`, async () => {
    const card = await get(`/board/projects/${projectId}/cards/${cardId}`);
    const path = href(card.body, 'The whole body')!;
    expect(path).toMatch(/\/variants\/\d+$/);
    const variant = await get(path);
    expect(variant.status).toBe(200);
    expect(variant.bytes).toBeLessThan(BUDGET.variant);
    expect(variant.body).toMatch(/Showing [\d,]+ of 65,002 characters\./);
    const body = await get(href(variant.body, 'The whole body as text')!);
    expect(body.type).toBe('text/plain; charset=utf-8');
    expect(body.body).toMatch(/^\d\d"{65000}$/);
  });

  it("an admin token's name, shown in histories, is at most 100 characters", async () => {
    await expect(server.board!.adminTokens.create({ name: 'n'.repeat(101) })).rejects.toThrow(
      "An admin token's name is at most 100 characters.",
    );
  });

  it(`history: 100 entries a page, within ${BUDGET.history / 1024} kB, every entry once`, async () => {
    const seen: string[] = [];
    let path: string | undefined = `/board/projects/${projectId}/cards/${cardId}/history`;
    let pages = 0;
    while (path) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.bytes).toBeLessThan(BUDGET.history);
      seen.push(...[...page.body.matchAll(/<time datetime="([^"]+)"/g)].map((m) => m[1]!));
      path = href(page.body, 'Older →');
      pages++;
    }
    expect(pages).toBe(6);
    // 520 entries, each once (their times differ by 1 ms, newest first).
    expect(seen).toHaveLength(520);
    expect(new Set(seen).size).toBe(520);
    expect([...seen].sort().reverse()).toEqual(seen);
    expect(
      (await get(`/board/projects/${projectId}/cards/${cardId}/history?before=x`)).status,
    ).toBe(400);
  });
});
