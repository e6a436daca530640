import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../testkit/src/chromium.ts';
import { type RunningServer, startServer } from '../../src/server.ts';

// Triage in real Chromium against the real service (reports posted over HTTP): resolve a card
// with its button, report the error again, see it come back as a regression with its history;
// tell variants apart by their differing lines; ignore cards in bulk from the list; and a form
// posted from another origin is refused. Screenshots go to server/test-results/board/; with
// SVC_UPDATE_SCREENSHOTS=1 the README's are also copied to server/docs/board/.
const OUT = fileURLToPath(new URL('../../test-results/board/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../docs/board/', import.meta.url));

let dataDir: string;
let server: RunningServer;
let attacker: Server;
let attackerUrl: string;
let browser: Browser;
let page: Page;
let projectId: number;
let key: string;
const problems: string[] = [];

const TRACE = (fn: string, line: number) =>
  `TypeError: Cannot read properties of undefined (reading 'token')\n    at ${fn} (src/checkout/pay.ts:${line}:11)\n    at async submit (src/checkout/form.ts:88:5)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`;

async function post(body: Record<string, unknown>) {
  const res = await fetch(`${server.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ severity: 'major', priority: 'medium', tags: [], ...body }),
  });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as { data: { id: number; status: string } };
}
const payment = (fn: string, line: number, tags = ['env:production', 'release:2.4.1']) =>
  post({
    severity: 'critical',
    priority: 'high',
    title: 'Payment token missing',
    description: TRACE(fn, line),
    tags,
    file_name: 'src/checkout/pay.ts',
  });

async function shot(name: string, docs = false) {
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  if (docs && process.env.SVC_UPDATE_SCREENSHOTS === '1') {
    mkdirSync(DOCS, { recursive: true });
    copyFileSync(join(OUT, `${name}.png`), join(DOCS, `${name}.png`));
  }
}
const text = async (selector: string) => (await page.textContent(selector))?.replace(/\s+/g, ' ');

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'svc-triage-browser-'));
  server = await startServer({ port: 0, dataDir, board: true });
  const account = await server.admin.createAccount({ name: 'Acme Shop', plan: 'team' });
  projectId = (await server.admin.createProject({ accountId: account.id, name: 'Storefront' })).id;
  key = (await server.admin.createPublishableKey({ projectId, name: 'web' })).token;
  await payment('authorize', 40);
  await payment('authorize', 40);
  await payment('chargeCard', 41);
  for (const [title, severity] of [
    ['Inventory sync timed out', 'moderate'],
    ['Slow image load', 'minor'],
    ['Cart badge shows NaN', 'major'],
    ['Legacy browser warning', 'minor'],
  ]) {
    await post({ title, severity, description: `${title} at src/app.ts:1:1` });
  }
  // Another origin (127.0.0.1 on another port: same site, other origin) with a status form.
  attacker = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(
      `<form method="post" action="${server.url}/board/projects/${projectId}/cards/1/status"><input name="status" value="ignored"><input name="csrf" value="${'0'.repeat(64)}"><button id="go">Win a prize</button></form>`,
    );
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;

  const token = (await server.board!.adminTokens.create({ name: 'ann' })).token;
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1000, height: 640 } });
  page = await context.newPage();
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && page.url().startsWith(server.url)) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}/board/login`);
  await page.fill('#token', token);
  await Promise.all([page.waitForURL(`${server.url}/board`), page.click('button[type=submit]')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('triage in Chromium', () => {
  it('resolves a card, and a new report of its error brings it back with the regression badge', async () => {
    await page.goto(`${server.url}/board/projects/${projectId}`);
    expect(await text('nav.statuses a.on')).toBe('Open 5');
    await page.click('text=Payment token missing');
    await page.waitForURL(/\/cards\/1\?env=production$/);
    expect(await text('dl.meta dd .status')).toBe('To do');

    // The variants say how they differ from the first report, collapsed: the changed words.
    const hints = await page.locator('details.variant summary code.hint').allTextContents();
    expect(hints).toEqual(['at authorize→chargeCard (src/checkout/pay.ts:40→41:11)']);
    expect(await page.locator('details.variant summary').nth(1).textContent()).toContain(
      'the first report',
    );
    await page.click('details.variant >> nth=0');
    expect(await page.locator('pre.diff .words del').allTextContents()).toEqual([
      'authorize',
      '40',
    ]);
    expect(await page.locator('pre.diff .words ins').allTextContents()).toEqual([
      'chargeCard',
      '41',
    ]);

    await Promise.all([page.waitForLoadState('load'), page.click('button[value=done]')]);
    expect(await text('dl.meta dd .status')).toBe('Done');
    expect(await page.locator('.badge.regressed').count()).toBe(0);
    expect(await text('ol.history li')).toMatch(/ann set Done in production \(was To do\)$/);

    const again = await payment('authorize', 40, ['env:production', 'release:2.4.2']);
    expect(again.data).toMatchObject({ id: 1, status: 'todo' });
    await page.reload();
    expect(await text('dl.meta dd .status')).toBe('To do');
    expect(await text('dl.meta .badge.regressed')).toBe('regressed');
    expect(await text('dl.meta')).toMatch(/Regressions\s*1 \(last .* UTC, .*, release 2\.4\.2\)/);
    const history = await page.locator('ol.history li').allTextContents();
    expect(history.map((h) => h.replace(/\s+/g, ' ').replace(/^.*? · /, ''))).toEqual([
      'regressed reported again in release 2.4.2 from production after it was resolved: Done → To do',
      'ann set Done in production (was To do)',
    ]);
    await shot('triage-card', true);
    await page.locator('h2:has-text("Variants")').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await shot('triage-history', true);

    await page.goto(`${server.url}/board/projects/${projectId}`);
    const row = page.locator('tr', { hasText: 'Payment token missing' });
    expect(await row.locator('.badge.regressed').textContent()).toBe('regressed');
  });

  it('ignores the checked cards in bulk; the tabs filter and count by status', async () => {
    await page.goto(`${server.url}/board/projects/${projectId}`);
    await page.check('tr:has-text("Slow image load") input[name=card]');
    await page.check('tr:has-text("Legacy browser warning") input[name=card]');
    await page.selectOption('div.bulk select[name=status]', 'ignored');
    await shot('triage-cards', true);
    await Promise.all([page.waitForLoadState('load'), page.click('div.bulk button')]);
    expect(new URL(page.url()).pathname).toBe(`/board/projects/${projectId}`);
    const tabs = await page.locator('nav.statuses a').allTextContents();
    expect(tabs.map((t) => t.replace(/\s+/g, ' '))).toEqual([
      'Open 3',
      'To do 3',
      'In progress 0',
      'Done 0',
      'Ignored 2',
      'All 5',
    ]);
    expect(await page.locator('td.title').allTextContents()).not.toContain('Slow image load');
    await page.click('nav.statuses a:has-text("Ignored")');
    await page.waitForURL(/status=ignored/);
    expect((await page.locator('td.title').allTextContents()).sort()).toEqual([
      'Legacy browser warning',
      'Slow image load',
    ]);
  });

  it('refuses a status form posted from another origin, and nothing changes', async () => {
    await page.goto(attackerUrl);
    await Promise.all([page.waitForURL(`${server.url}/**`), page.click('#go')]);
    expect(await text('h1')).toBe('Refused');
    expect(await text('main p')).toContain('nothing changed');
    await page.goto(`${server.url}/board/projects/${projectId}/cards/1`);
    expect(await text('dl.meta dd .status')).toBe('To do');
    expect(await page.locator('ol.history li').count()).toBe(2);
  });

  it('raised no dialog and logged no error on the board (but the refused form)', () => {
    expect(problems).toEqual([
      'Failed to load resource: the server responded with a status of 403 (Forbidden)',
    ]);
  });
});
