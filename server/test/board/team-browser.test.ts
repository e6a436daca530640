import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../testkit/src/chromium.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import { runCli } from '../helpers.ts';
import { STORE_KIND, testDatabaseUrl } from '../store-kind.ts';

// A team's day on the board in real Chromium, against the real service over HTTP: one
// environment at a time (a development report leaves the production view untouched, the choice
// remembered), search over the stack, the sort selector, the location column, tab counts that
// follow the search, the confirmation after a bulk change, and resolving in the current release
// or a named one (an older release leaves the card done, a newer one reopens it, the history says
// why); the CLI, on the same database, lists and searches. On SQLite one instance; in `server-pg`
// two instances of one PostgreSQL: reports go to one, the browser reads and changes the board on
// the other. Screenshots go to server/test-results/board/; with SVC_UPDATE_SCREENSHOTS=1 (SQLite
// run) also to server/docs/board/.
const OUT = fileURLToPath(new URL('../../test-results/board/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../docs/board/', import.meta.url));

const dirs: string[] = [];
let databaseUrl: string | undefined;
let ingest: RunningServer;
let board: RunningServer;
let browser: Browser;
let page: Page;
let projectId: number;
let key: string;
const problems: string[] = [];

interface Sent {
  title: string;
  severity?: string;
  priority?: string;
  description?: string;
  file_name?: string;
  line_number?: number;
  tags?: string[];
}
async function report(body: Sent) {
  const res = await fetch(`${ingest.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ severity: 'major', priority: 'medium', tags: [], ...body }),
  });
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { data: { id: number; status: string } }).data;
}
const payment = (env: string, release: string) =>
  report({
    title: 'Payment token missing',
    severity: 'critical',
    priority: 'high',
    description: `TypeError: Cannot read properties of undefined (reading 'token')\n    at authorize (src/checkout/pay.ts:40:11)\n    at async submit (src/checkout/form.ts:88:5)`,
    file_name: 'src/checkout/pay.ts',
    tags: [`env:${env}`, `release:${release}`],
  });

async function shot(name: string) {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
  if (process.env.SVC_UPDATE_SCREENSHOTS === '1' && STORE_KIND === 'sqlite') {
    mkdirSync(DOCS, { recursive: true });
    copyFileSync(join(OUT, `${name}.png`), join(DOCS, `${name}.png`));
  }
}
const text = async (selector: string) =>
  (await page.locator(selector).first().textContent())?.replace(/\s+/g, ' ').trim();
const all = async (selector: string) =>
  (await page.locator(selector).allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
const projectUrl = (query = '') => `${board.url}/board/projects/${projectId}${query}`;
/** Waits for the page a click or a submit leads to. */
const navigate = (act: Promise<unknown>) => Promise.all([page.waitForEvent('load'), act]);

async function startService() {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-team-browser-'));
  dirs.push(dataDir);
  return startServer({ port: 0, dataDir, databaseUrl, board: true });
}

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  databaseUrl = await testDatabaseUrl();
  ingest = await startService();
  board = databaseUrl ? await startService() : ingest;
  const account = await ingest.admin.createAccount({ name: 'Acme Shop', plan: 'team' });
  projectId = (await ingest.admin.createProject({ accountId: account.id, name: 'Storefront' })).id;
  key = (await ingest.admin.createPublishableKey({ projectId, name: 'web' })).token;

  await payment('production', '2.4.0');
  await payment('production', '2.4.1');
  await report({
    title: 'Inventory sync timed out',
    severity: 'moderate',
    priority: 'low',
    file_name: 'src/jobs/inventory.ts',
    line_number: 12,
    tags: ['env:production', 'release:2.4.1'],
  });
  await report({ title: 'Slow image load', severity: 'minor', tags: ['env:production'] });
  await report({
    title: 'Cart badge shows NaN',
    description: 'RangeError: NaN\n    at renderBadge (src/cart/badge.tsx:7:3)',
    file_name: 'src/cart/badge.tsx',
    tags: ['env:production', 'release:2.4.1'],
  });
  // What `next dev` sends (NODE_ENV development): its own card, and the payment error once more.
  await report({ title: 'Hot reload lost state', tags: ['env:development'] });
  await payment('development', '2.4.1');

  const token = (await board.board!.adminTokens.create({ name: 'ann' })).token;
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1200, height: 700 } });
  page = await context.newPage();
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${board.url}/board/login`);
  await page.fill('#token', token);
  await navigate(page.click('button[type=submit]'));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (board !== ingest) await board?.close();
  await ingest?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe(`the board a team works in, in Chromium (${STORE_KIND === 'sqlite' ? 'SQLite' : 'two instances of one PostgreSQL'})`, () => {
  it('shows one environment at a time: production by default, the choice remembered', async () => {
    await page.goto(projectUrl());
    expect(await all('nav.envs a')).toEqual(['production 4', 'development 2']);
    expect(await text('nav.envs a.on')).toBe('production 4');
    expect(await all('td.title')).not.toContain('Hot reload lost state');
    // The development report of the payment error left its production count at 2.
    const payRow = page.locator('tr', { hasText: 'Payment token missing' });
    expect(await payRow.locator('td.num').textContent()).toBe('2');
    await shot('environments');

    await navigate(page.click('nav.envs a:has-text("development")'));
    expect(new URL(page.url()).searchParams.get('env')).toBe('development');
    expect((await all('td.title')).sort()).toEqual([
      'Hot reload lost state',
      'Payment token missing',
    ]);
    expect(await payRow.locator('td.num').textContent()).toBe('1');
    // Remembered: the project's page without ?env= opens in development.
    await page.goto(projectUrl());
    expect(await text('nav.envs a.on')).toBe('development 2');
    await navigate(page.click('nav.envs a:has-text("production")'));
    await page.goto(projectUrl());
    expect(await text('nav.envs a.on')).toBe('production 4');
  });

  it('searches the stack, sorts by severity, shows file and line, counts what the search finds', async () => {
    await page.goto(projectUrl());
    expect(await all('nav.statuses a')).toEqual([
      'Open 4',
      'To do 4',
      'In progress 0',
      'Done 0',
      'Ignored 0',
      'All 4',
    ]);
    const where = Object.fromEntries(
      await Promise.all(
        (await page.locator('tbody tr').all()).map(async (row) => [
          await row.locator('td.title').textContent(),
          await row.locator('td.where').textContent(),
        ]),
      ),
    );
    expect(where).toEqual({
      'Payment token missing': 'src/checkout/pay.ts:40',
      'Inventory sync timed out': 'src/jobs/inventory.ts:12',
      'Cart badge shows NaN': 'src/cart/badge.tsx:7',
      'Slow image load': '–',
    });

    await page.selectOption('form.filters select[name=sort]', 'severity');
    await navigate(page.click('form.filters button[type=submit]'));
    expect(await all('td.title')).toEqual([
      'Payment token missing',
      'Cart badge shows NaN',
      'Inventory sync timed out',
      'Slow image load',
    ]);

    // A word of the stack only (the title and file name do not hold it).
    await page.fill('form.filters input[name=q]', 'form.ts:88');
    await navigate(page.press('form.filters input[name=q]', 'Enter'));
    expect(await all('td.title')).toEqual(['Payment token missing']);
    expect(await all('nav.statuses a')).toEqual([
      'Open 1',
      'To do 1',
      'In progress 0',
      'Done 0',
      'Ignored 0',
      'All 1',
    ]);
    await shot('search');
    await page.fill('form.filters input[name=q]', 'badge');
    await navigate(page.press('form.filters input[name=q]', 'Enter'));
    expect(await all('td.title')).toEqual(['Cart badge shows NaN']);
    // The search keeps the sort; the environment is the one viewed (development has no such card).
    expect(new URL(page.url()).searchParams.get('sort')).toBe('severity');
    await page.goto(projectUrl('?env=development&q=badge'));
    expect(await all('td.title')).toEqual([]);
    expect(await text('nav.statuses a')).toBe('Open 0');
    await page.goto(projectUrl('?env=production'));
  });

  it('confirms a bulk change and counts it in the tabs', async () => {
    await page.goto(projectUrl());
    await page.check('tr:has-text("Slow image load") input[name=card]');
    await page.check('tr:has-text("Inventory sync timed out") input[name=card]');
    await page.selectOption('div.bulk select[name=status]', 'ignored');
    await navigate(page.click('div.bulk button'));
    expect(await text('p.notice')).toBe('Set 2 cards to Ignored.');
    expect(await all('nav.statuses a')).toEqual([
      'Open 2',
      'To do 2',
      'In progress 0',
      'Done 0',
      'Ignored 2',
      'All 4',
    ]);
    await shot('bulk-confirmation');
    // The same again changes nothing, and says so.
    await page.goto(projectUrl('?status=ignored'));
    await page.check('tr:has-text("Slow image load") input[name=card]');
    await page.selectOption('div.bulk select[name=status]', 'ignored');
    await navigate(page.click('div.bulk button'));
    expect(await text('p.notice')).toBe('Nothing changed: 1 card already was Ignored.');
  });

  it('resolves in the current release: an older release leaves it done, a newer one reopens it', async () => {
    await page.goto(projectUrl());
    await navigate(page.click('text=Payment token missing'));
    // The card says where, as its row does: the line from the stack (the report sent none).
    expect(await text('dl.meta dt:has-text("Location") + dd')).toBe('src/checkout/pay.ts:40');
    expect(await text('details.variant summary code')).toBe('src/checkout/pay.ts:40');
    // The current release is the newest seen; the form offers it, and every release seen.
    expect(await page.inputValue('form.release-form input[name=release]')).toBe('2.4.1');
    const offered = await page
      .locator('form.release-form datalist option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).sort());
    expect(offered).toEqual(['2.4.0', '2.4.1']);
    await navigate(page.click('form.release-form button'));
    expect(await text('dl.meta dd .status')).toBe('Done');
    expect((await text('ol.history li'))?.replace(/^.*? · /, '')).toBe(
      'ann set Done in production, from release 2.4.1 on (was To do)',
    );

    const old = await payment('production', '2.4.0');
    expect(old.status).toBe('done');
    await page.reload();
    expect(await text('dl.meta dd .status')).toBe('Done');
    const newer = await payment('production', '2.5.0');
    expect(newer.status).toBe('todo');
    await page.reload();
    expect(await text('dl.meta dd .status')).toBe('To do');
    expect(await text('dl.meta .badge.regressed')).toBe('regressed');
    expect((await all('ol.history li')).map((h) => h.replace(/^.*? · /, ''))).toEqual([
      'regressed reported again in release 2.5.0 from production after it was resolved (a newer release than it was resolved in, by semver): Done → To do',
      'ann set Done in production, from release 2.4.1 on (was To do)',
    ]);
    await shot('release-resolution');
  });

  it('resolves in a named release not seen yet: every release before it stays done', async () => {
    await page.goto(projectUrl());
    await navigate(page.click('text=Cart badge shows NaN'));
    await page.fill('form.release-form input[name=release]', '2.6.0');
    await navigate(page.click('form.release-form button'));
    expect(await text('dl.meta dd .status')).toBe('Done');
    for (const release of ['2.4.1', '2.5.0']) {
      const again = await report({
        title: 'Cart badge shows NaN',
        description: 'RangeError: NaN\n    at renderBadge (src/cart/badge.tsx:7:3)',
        file_name: 'src/cart/badge.tsx',
        tags: ['env:production', `release:${release}`],
      });
      expect(again.status).toBe('done');
    }
    // The CLI (on the other instance in server-pg) sees the same card done.
    const storeArgs = databaseUrl ? ['--database-url', databaseUrl] : ['--data-dir', dirs[0]!];
    const r = await runCli([
      'cards',
      'list',
      '--project',
      String(projectId),
      '--json',
      ...storeArgs,
    ]);
    expect(r.code).toBe(0);
    const cards = JSON.parse(r.stdout) as { title: string; status: string }[];
    expect(cards.find((c) => c.title === 'Cart badge shows NaN')?.status).toBe('done');
    // The CLI searches as the search box does: a word of a stack, of a tag; by id.
    const search = async (words: string) => {
      const found = await runCli([
        'cards',
        'list',
        '--project',
        String(projectId),
        '--search',
        words,
        '--json',
        ...storeArgs,
      ]);
      expect([found.code, found.output]).toEqual([0, expect.anything()]);
      return (JSON.parse(found.stdout) as { title: string }[]).map((c) => c.title);
    };
    expect(await search('form.ts:88')).toEqual(['Payment token missing']);
    expect(await search('development')).toEqual(['Payment token missing', 'Hot reload lost state']);
    expect(await search('zebra')).toEqual([]);
    await page.reload();
    expect(await text('dl.meta dd .status')).toBe('Done');
  });

  it('raised no dialog and logged no error on the board', () => {
    expect(problems).toEqual([]);
  });
});
