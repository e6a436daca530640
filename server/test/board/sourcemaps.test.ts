import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server.ts';
import { SOURCEMAPS, signHeaders } from '../helpers.ts';
import { type BuiltChunk, buildApp } from '../sourcemaps/build-fixture.ts';
import { stackOf, uploadBody } from '../sourcemaps/stack.ts';
import { testDatabaseUrl } from '../store-kind.ts';

// What source maps add to the board, over real HTTP on 127.0.0.1 (in-process service, SQLite or
// PostgreSQL): the original source around the top frame of the project's own code, the frames as
// the SDK sent them with what became of each, all escaped, and none of it without signing in.
let dataDir: string;
let server: RunningServer;
let projectId: number;
let publishable: string;
let token: string;
let app: BuiltChunk;
let cardPath: string;

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { headers, redirect: 'manual' });
const signedIn = () => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-board-maps-'));
  const databaseUrl = await testDatabaseUrl();
  // A line of the source that is markup, within the lines shown around the throw.
  [server, app] = await Promise.all([
    startServer({ port: 0, dataDir, databaseUrl, board: true }),
    buildApp({ extra: '// </li><img src=x onerror=alert(1)>' }),
  ]);
  const account = await server.admin.createAccount({ name: 'Acme', plan: 'team' });
  projectId = (await server.admin.createProject({ accountId: account.id, name: 'Web' })).id;
  publishable = (await server.admin.createPublishableKey({ projectId, name: 'web' })).token;
  const secret = await server.admin.createSecretKey({ projectId, name: 'build' });
  token = (await server.board!.adminTokens.create({ name: 'ops' })).token;
  const body = uploadBody(app, 'b-1');
  const ts = Math.floor(Date.now() / 1000);
  const uploaded = await fetch(server.url + SOURCEMAPS, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...signHeaders(body, secret.signingSecret, secret.keyId, ts, SOURCEMAPS),
    },
    body,
  });
  expect(uploaded.status).toBe(201);
  const stack = `${stackOf(app, 'boom')}\n    at later (assets/not-uploaded-1.js:1:2)`;
  const reported = await fetch(`${server.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${publishable}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      severity: 'major',
      title: 'Order failed',
      description: stack,
      tags: ['release:b-1'],
      file_name: app.path,
    }),
  });
  expect(reported.status).toBe(201);
  const card = await reported.json();
  // What an API key gets back is the mapped report, never the map's sources.
  expect(JSON.stringify(card)).not.toContain('onerror');
  expect(card.data.file_name).toBe('src/orders.ts');
  cardPath = `/board/projects/${projectId}/cards/${card.data.id}`;
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The card page once the raw frames (written a turn after the report) are there. */
async function cardPage(): Promise<string> {
  let text = '';
  await expect
    .poll(async () => {
      text = await (await get(cardPath, signedIn())).text();
      return text.includes('<h2>Code');
    })
    .toBe(true);
  return text;
}

describe('a mapped card on the board', () => {
  it("shows the original source around the top frame of the project's own code, escaped", async () => {
    const page = await cardPage();
    expect(page).toContain(
      '<h2>Code <span class="muted">(<code>src/orders.ts:6</code>)</span></h2>',
    );
    const code = page.slice(
      page.indexOf('<ol class="code"'),
      page.indexOf('</ol>', page.indexOf('<ol class="code"')),
    );
    expect(code).toContain('<ol class="code" start="1">');
    expect(code).toContain('<li value="3">export function loadOrder(id: string) {</li>');
    expect(code).toContain(
      '<li class="hit" value="6">    throw new Error(&#39;Order &#39; + id + &#39; failed&#39;);</li>',
    );
    expect(code).toContain('<li value="11">// &lt;/li&gt;&lt;img src=x onerror=alert(1)&gt;</li>');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain(`<a href="${cardPath}/raw">The frames as sent</a>`);
  });

  it('shows the frames as sent on demand, each with where it was mapped or why it was not', async () => {
    const res = await get(`${cardPath}/raw`, signedIn());
    expect(res.status).toBe(200);
    const page = await res.text();
    const frames = [...page.matchAll(/<li class="frame">(.*?)<\/li>/g)].map((m) => m[1]);
    expect(frames).toEqual([
      expect.stringMatching(
        /^ {4}at d \(https:\/\/app\.example\/assets\/main-\w+\.js:1:\d+\) <span class="mapped">→ src\/orders\.ts:6:11<\/span>$/,
      ),
      expect.stringMatching(
        /^ {4}at Object\.k \[as start\] \(.*\) <span class="mapped">→ src\/main\.ts:3:10<\/span>$/,
      ),
      '    at later (assets/not-uploaded-1.js:1:2) <span class="unmapped">(no map for this file)</span>',
    ]);
    expect(page).toContain(`Location as sent: <code>${app.path}</code>`);
    // The card's first variant (its first report, the database's first variant) has the same page,
    // and so does a second one: the same stack under another title (a repeat mapped from memory).
    const again = await fetch(`${server.url}/api/v1/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${publishable}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        severity: 'major',
        title: 'Order failed again',
        description: `${stackOf(app, 'boom')}\n    at later (assets/not-uploaded-1.js:1:2)`,
        tags: ['release:b-1'],
        file_name: app.path,
      }),
    });
    expect(again.status).toBe(200);
    await expect
      .poll(async () => (await get(`${cardPath}/variants/2/raw`, signedIn())).status)
      .toBe(200);
    const ofVariant = await (await get(`${cardPath}/variants/1/raw`, signedIn())).text();
    expect([...ofVariant.matchAll(/<li class="frame">(.*?)<\/li>/g)].map((m) => m[1])).toEqual(
      frames,
    );
  });

  it("needs the board's sign-in: a browser is sent to it, an API key is refused", async () => {
    for (const path of [cardPath, `${cardPath}/raw`]) {
      const anonymous = await get(path);
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.get('location')).toBe(
        `/board/login?next=${encodeURIComponent(path)}`,
      );
      const withKey = await get(path, { authorization: `Bearer ${publishable}` });
      expect(withKey.status).toBe(401);
      expect(await withKey.text()).not.toContain('orders.ts');
    }
    // No route serves maps or their sources to a key.
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(server.url + SOURCEMAPS, {
        method,
        headers: { authorization: `Bearer ${publishable}` },
      });
      expect(res.status).toBe(404);
    }
  });

  it('has no raw page for a card ingestion did not map', async () => {
    const reported = await fetch(`${server.url}/api/v1/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${publishable}`, 'content-type': 'application/json' },
      body: JSON.stringify({ severity: 'minor', title: 'Plain', description: 'no frames here' }),
    });
    const { data } = await reported.json();
    const path = `/board/projects/${projectId}/cards/${data.id}`;
    expect(await (await get(path, signedIn())).text()).not.toContain('<h2>Code');
    expect((await get(`${path}/raw`, signedIn())).status).toBe(404);
  });
});
