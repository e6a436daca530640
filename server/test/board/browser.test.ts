import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../testkit/src/chromium.ts';
import { type RunningServer, startServer } from '../../src/server.ts';

// The board in real Chromium against the real service (reports posted over HTTP): sign in, the
// accounts page, a project's cards, a filter, a card with its variants, then a hostile report.
// Every page must load nothing from elsewhere, run no script, raise no dialog and log no console
// error (CSP violations are console errors). Screenshots go to server/test-results/board/;
// with SVC_UPDATE_SCREENSHOTS=1 one per page is also copied to server/docs/board/ for the README.
const OUT = fileURLToPath(new URL('../../test-results/board/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../docs/board/', import.meta.url));

let dataDir: string;
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
let projectId: number;
const dialogs: string[] = [];
const problems: string[] = [];
const foreign: string[] = [];
const weights: Record<string, number> = {};

const TRACE = (fn: string, line: number) =>
  `TypeError: Cannot read properties of undefined (reading 'token')\n    at ${fn} (src/checkout/pay.ts:${line}:11)\n    at async submit (src/checkout/form.ts:88:5)\n    at async Promise.all (index 0)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n    at handle (node_modules/express/lib/router/layer.js:95:5)`;
const HOSTILE_TITLE = `<script>alert('title')</script>"><img src=x onerror=alert('img')>`;
const HOSTILE_TAGS = [`"><img src=x onerror=alert('tag')>`, 'javascript:alert(1)', '<b>bold</b>'];
const hostileDescription = () => {
  const head = `<script>alert('desc')</script>\n"><img src=x onerror=alert('desc-img')>\n<a href="javascript:alert('link')">click</a> javascript:alert('url')\n`;
  return head + 'x'.repeat(65_535 - head.length);
};

async function post(apiKey: string, body: Record<string, unknown>) {
  const res = await fetch(`${server.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ priority: 'medium', tags: [], ...body }),
  });
  expect(res.status).toBeLessThan(300);
}

async function seed() {
  const account = await server.admin.createAccount({ name: 'Acme Shop', plan: 'team' });
  projectId = (await server.admin.createProject({ accountId: account.id, name: 'Storefront' })).id;
  const api = await server.admin.createProject({ accountId: account.id, name: 'Payments API' });
  const key = (await server.admin.createPublishableKey({ projectId, name: 'web' })).token;
  const apiKey = (await server.admin.createPublishableKey({ projectId: api.id, name: 'api' }))
    .token;
  const tags = ['env:production', 'release:2.4.1', 'checkout'];
  // One card with 23 distinct variants: 20 kept, the rest counted in `Other variants`.
  for (let i = 0; i < 23; i++) {
    await post(key, {
      severity: 'critical',
      priority: 'high',
      title: 'Payment token missing',
      description: TRACE(i % 2 ? 'chargeCard' : 'authorize', 40 + i),
      tags,
      file_name: 'src/checkout/pay.ts',
    });
  }
  for (let i = 0; i < 3; i++) {
    await post(key, {
      severity: 'moderate',
      title: 'Inventory sync returned JSON error',
      description: `{"error":"stale","sku":"A-${i}","order_id":90071992547409931,"retry":{"after":30,"attempts":[1,2,3]}}`,
      tags: ['sync', 'env:production'],
    });
  }
  await post(key, {
    severity: 'minor',
    priority: 'low',
    title: 'Slow image load',
    description: 'hero.jpg took 4.2 s',
    tags: ['perf'],
  });
  for (let i = 0; i < 55; i++) {
    await post(key, {
      severity: ['critical', 'major', 'moderate', 'minor'][i % 4],
      priority: ['low', 'medium', 'high'][i % 3],
      title: `Checkout step ${i} failed`,
      description: `step ${i} at src/steps/${i}.ts:1:1`,
      tags: ['env:staging'],
    });
  }
  await post(key, {
    severity: 'major',
    title: HOSTILE_TITLE,
    description: hostileDescription(),
    tags: HOSTILE_TAGS,
  });
  for (let i = 0; i < 40; i++) await post(apiKey, { severity: 'major', title: 'Upstream timeout' });
  // A small account close to its daily quota: the bars and the 80 % share mark mean something.
  const side = await server.admin.createAccount({ name: 'Side project', plan: 'hobby' });
  for (const [name, events] of [
    ['Blog', 170],
    ['Newsletter', 55],
  ] as const) {
    const p = await server.admin.createProject({ accountId: side.id, name });
    const k = (await server.admin.createPublishableKey({ projectId: p.id, name })).token;
    for (let i = 0; i < events; i++)
      await post(k, { severity: 'minor', title: `${name} warning ${i % 4}` });
  }
}

/** One per page goes to the README (`docs`); the test's output dir gets every screenshot. */
async function shot(name: string, docs = false) {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: false });
  if (docs && process.env.SVC_UPDATE_SCREENSHOTS === '1') {
    mkdirSync(DOCS, { recursive: true });
    copyFileSync(join(OUT, `${name}.png`), join(DOCS, `${name}.png`));
  }
}

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'svc-board-browser-'));
  // The hobby plan's burst limit (60 a minute) would refuse the seeding; its quota stays 300 a day.
  const plans = { hobby: { burstPerMinute: 10_000 } };
  server = await startServer({ port: 0, dataDir, board: true, plans });
  await seed();
  token = (await server.board!.adminTokens.create({ name: 'browser test' })).token;
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1000, height: 600 } });
  page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => {
    if (!r.url().startsWith(server.url)) foreign.push(r.url());
  });
  page.on('response', async (r) => {
    const { pathname, search } = new URL(r.url());
    const path = pathname + search;
    const body = await r.body().catch(() => undefined);
    if (body) weights[path] = body.length;
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  writeFileSync(join(OUT, 'weights.json'), `${JSON.stringify(weights, null, 2)}\n`);
});

describe('the board in Chromium', () => {
  it('signs in, shows accounts, a project, a filter, a card and its variants', async () => {
    await page.goto(`${server.url}/board`);
    expect(new URL(page.url()).pathname).toBe('/board/login');
    await shot('login', true);
    await page.fill('#token', token);
    await Promise.all([page.waitForURL(`${server.url}/board`), page.click('button[type=submit]')]);

    const cookies = await context.cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({
      name: 'svc_board',
      httpOnly: true,
      sameSite: 'Strict',
      secure: false,
      path: '/board',
    });
    expect(await page.evaluate(() => document.cookie)).toBe(''); // HttpOnly: invisible to script

    expect(await page.locator('h2').allTextContents()).toEqual([
      'Acme Shop · Team plan · 20,000 events a day',
      'Side project · Hobby plan · 300 events a day',
    ]);
    const side = page.locator('section').nth(1);
    expect(await side.locator('tbody tr').count()).toBe(3); // two projects + the account total
    expect(await side.locator('svg.bar line.mark').count()).toBe(2); // the 80 % share, per project
    expect(await side.locator('tr.total').textContent()).toContain('225 (75 %)');
    expect(await side.locator('svg.bar rect.fill').first().getAttribute('width')).toBe('56.67');
    expect(await page.textContent('main')).toContain('(applies now)');
    await shot('accounts', true);

    await page.click('text=Storefront');
    await page.waitForURL(`**/board/projects/${projectId}`);
    // Production by default: the cards reported from there (or naming no environment).
    expect(await page.locator('table.cards tbody tr').count()).toBe(4);
    expect(await page.textContent('main')).toContain('59 cards in all environments');
    const envs = await page.locator('nav.envs a').allTextContents();
    expect(envs.map((e) => e.replace(/\s+/g, ' '))).toEqual(['production 4', 'staging 55']);
    expect(await page.locator('tr:has-text("Payment token missing") td.where').textContent()).toBe(
      'src/checkout/pay.ts:40', // the line from the stack: the report sent the file alone
    );
    await shot('cards', true);

    await page.click('nav.envs a:has-text("staging")');
    await page.waitForURL(/env=staging/);
    expect(await page.locator('table.cards tbody tr').count()).toBe(50);
    await page.click('a[rel=next]');
    await page.waitForURL(/after=/);
    expect(await page.locator('table.cards tbody tr').count()).toBe(5);
    await page.click('a[rel=prev]');
    await page.waitForURL(/before=/);
    expect(await page.locator('table.cards tbody tr').count()).toBe(50);
    // Remembered: the project's page without a choice shows staging, until another is chosen.
    await page.goto(`${server.url}/board/projects/${projectId}`);
    expect(await page.locator('nav.envs a.on').textContent()).toMatch(/^staging/);
    await page.click('nav.envs a:has-text("production")');
    await page.waitForURL(/env=production/);
    expect(await page.locator('table.cards tbody tr').count()).toBe(4);

    await page.selectOption('select[name=severity]', 'critical');
    await page.fill('input[name=tag]', 'checkout');
    await Promise.all([page.waitForURL(/severity=critical/), page.click('form.filters button')]);
    const rows = page.locator('table.cards tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Payment token missing');
    expect(await rows.first().locator('td.num').textContent()).toBe('23');

    await page.click('th a:has-text("Count")');
    await page.waitForURL(/sort=count/);
    expect(new URL(page.url()).searchParams.get('severity')).toBe('critical'); // filters kept
    await shot('cards-filtered');

    await page.click('text=Payment token missing');
    await page.waitForURL(/\/cards\/\d+\?env=production$/);
    expect(await page.textContent('h1')).toBe('Payment token missing');
    expect(await page.locator('.trace').first().locator('ol.frames li').count()).toBe(5);
    expect(await page.locator('.trace li.first .loc').first().textContent()).toMatch(
      /^src\/checkout\/pay\.ts:/,
    );
    expect(await page.locator('details.variant').count()).toBe(20);
    const other = page.locator('.variant.aggregate');
    expect(await other.textContent()).toMatch(/Other variants · 3 reports/);
    expect(await page.locator('svg.spark rect.hits').count()).toBe(1);
    expect(await page.textContent('main')).toContain('(UTC, 23 events)');
    await shot('card', true);

    await page.goto(`${server.url}/board/projects/${projectId}?q=Inventory`);
    await page.click('text=Inventory sync returned JSON error');
    const json = await page.textContent('pre.json');
    expect(json).toContain('"order_id": 90071992547409931'); // exact digits, not rounded
    expect(json).toContain('"attempts": [\n');
  });

  it('shows a hostile report as text: no script runs, no dialog, nothing loaded from elsewhere', async () => {
    await page.goto(
      `${server.url}/board/projects/${projectId}?q=${encodeURIComponent('<script>')}`,
    );
    expect(await page.locator('table.cards tbody tr').count()).toBe(1);
    expect(await page.locator('td.title a').textContent()).toBe(HOSTILE_TITLE);
    expect(await page.locator('table.cards a.tag').allTextContents()).toEqual(HOSTILE_TAGS);
    await page.click('td.title a');
    await page.waitForURL(/\/cards\/\d+\?env=production$/);
    expect(await page.textContent('h1')).toBe(HOSTILE_TITLE);
    expect(await page.title()).toBe(`${HOSTILE_TITLE} · Svc board`);
    expect(await page.locator('dd a.tag').allTextContents()).toEqual(HOSTILE_TAGS);
    const shown = await page.textContent('pre.plain');
    expect(shown).toBe(hostileDescription());
    const dom = await page.evaluate(() => ({
      scripts: document.scripts.length,
      images: document.images.length,
      links: [...document.links].map((a) => a.protocol),
      styled: document.querySelectorAll('[style]').length,
    }));
    expect(dom).toEqual({ scripts: 0, images: 0, links: dom.links.map(() => 'http:'), styled: 0 });
    await shot('hostile-card');
    const { pathname, search } = new URL(page.url());
    expect(weights[pathname + search]).toBeGreaterThan(65_535);
  });

  it('signs out, and then nothing is visible', async () => {
    await page.goto(`${server.url}/board`);
    await Promise.all([page.waitForURL(/\/board\/login$/), page.click('text=Sign out')]);
    expect(await context.cookies()).toHaveLength(0);
    await page.goto(`${server.url}/board/projects/${projectId}`);
    expect(new URL(page.url()).pathname).toBe('/board/login');
    expect(await page.textContent('body')).not.toContain('Payment token missing');
  });

  it('raised no dialog, logged no error, loaded nothing from elsewhere, and stays small', () => {
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
    const css = Object.entries(weights).find(([p]) => p.endsWith('.css'))!;
    expect(css[1]).toBeLessThan(8 * 1024);
    expect(weights[`/board/projects/${projectId}`]).toBeLessThan(48 * 1024); // 50 rows
    expect(weights['/board']).toBeLessThan(16 * 1024);
    console.log(`board page weights (bytes, uncompressed): ${JSON.stringify(weights)}`);
  });
});
