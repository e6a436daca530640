import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../testkit/src/chromium.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import { type Receiver, startReceiver, verifyAlert, waitFor } from '../alerts/receiver.ts';

// Alerts set up in real Chromium against the real service, with real receivers on 127.0.0.1:
// from the project's page to its alerts, a signed webhook (its secret shown once) and a
// Slack-compatible one, two rules, a test alert, then reports that fire them and a receiver that
// answers 500, all read back in the delivery log. Screenshots go to server/test-results/board/;
// with SVC_UPDATE_SCREENSHOTS=1 also to server/docs/board/.
const OUT = fileURLToPath(new URL('../../test-results/board/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../docs/board/', import.meta.url));

let dataDir: string;
let server: RunningServer;
let ops: Receiver;
let chat: Receiver;
let browser: Browser;
let page: Page;
let projectId: number;
let key: string;
const problems: string[] = [];

async function post(title: string, severity: string, tags: string[]) {
  const res = await fetch(`${server.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      severity,
      priority: 'high',
      title,
      tags,
      file_name: 'src/checkout/pay.ts',
      line_number: 40,
    }),
  });
  expect(res.status).toBeLessThan(300);
}
async function shot(name: string) {
  await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
  if (process.env.SVC_UPDATE_SCREENSHOTS === '1') {
    mkdirSync(DOCS, { recursive: true });
    copyFileSync(join(OUT, `${name}.png`), join(DOCS, `${name}.png`));
  }
}
/** Each row's cells' text, joined with ` | `. */
const rows = (selector: string) =>
  page.$$eval(selector, (trs) =>
    trs.map((tr) =>
      [...(tr as HTMLTableRowElement).cells]
        .map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim())
        .join(' | '),
    ),
  );
const submit = async (selector: string) =>
  Promise.all([page.waitForLoadState('load'), page.click(selector)]);

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'svc-alerts-browser-'));
  ops = await startReceiver('ok');
  chat = await startReceiver('ok');
  server = await startServer({
    port: 0,
    dataDir,
    board: true,
    alerts: { tickMs: 100, retryBaseMs: 60_000, publicUrl: 'https://errors.acme.test' },
  });
  const account = await server.admin.createAccount({ name: 'Acme Shop', plan: 'team' });
  projectId = (await server.admin.createProject({ accountId: account.id, name: 'Storefront' })).id;
  key = (await server.admin.createPublishableKey({ projectId, name: 'web' })).token;
  const token = (await server.board!.adminTokens.create({ name: 'ann' })).token;
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}/board/login`);
  await page.fill('#token', token);
  await Promise.all([page.waitForURL(`${server.url}/board`), page.click('button[type=submit]')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await ops?.stop();
  await chat?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('alerts in Chromium', () => {
  it('sets up webhooks and rules from the board, sends a test, and shows the delivery log', async () => {
    await page.goto(`${server.url}/board/projects/${projectId}`);
    await Promise.all([page.waitForURL(/\/alerts$/), page.click('a:has-text("Alerts")')]);
    expect(await page.textContent('h1')).toBe('Alerts');
    expect(await page.textContent('main')).toContain('No webhooks yet.');

    await page.fill('input[name=name]', 'On-call <ops>');
    await page.fill('input[name=url]', ops.url('/svc/hooks/alerts?key=hidden'));
    await submit('button:has-text("Add webhook")');
    const secret = (await page.textContent('code.secret'))!;
    expect(secret).toMatch(/^svc_whsec_[0-9a-f]{64}$/);
    expect(await page.textContent('p.ok')).toContain('Webhook #1 “On-call <ops>” added.');

    await page.fill('form[action$="/webhooks"] input[name=name]', '#errors channel');
    await page.fill('input[name=url]', chat.url('/services/T0/B0/XYZ'));
    await page.selectOption('select[name=format]', 'slack');
    await submit('button:has-text("Add webhook")');
    expect(await rows('h2:has-text("Webhooks") + table tbody tr')).toEqual([
      expect.stringMatching(
        /^1 \| On-call <ops> \| http:\/\/127\.0\.0\.1:\d+\/… \| json \(signed\) \| \d{4}-/,
      ),
      expect.stringMatching(
        /^2 \| #errors channel \| http:\/\/127\.0\.0\.1:\d+\/… \| slack \| \d{4}-/,
      ),
    ]);
    expect(await page.textContent('main')).not.toContain('hidden');

    // A rule for new production cards of the top two severities, to the signed webhook.
    const rule = 'form[action$="/rules"]';
    await page.fill(`${rule} input[name=name]`, 'Production criticals');
    await page.selectOption(`${rule} select[name=event]`, 'new');
    await page.fill(`${rule} input[name=environments]`, 'production');
    await page.check(`${rule} input[value=critical]`);
    await page.check(`${rule} input[value=major]`);
    await page.selectOption(`${rule} select[name=webhook]`, '1');
    await submit(`${rule} button[type=submit]`);
    expect(await page.textContent('p.ok')).toBe('Rule added.');
    // More than 2 reports of a card in 5 minutes, to the chat channel.
    await page.selectOption(`${rule} select[name=event]`, 'frequency');
    await page.fill(`${rule} input[name=threshold]`, '2');
    await page.fill(`${rule} input[name=window]`, '5');
    await page.selectOption(`${rule} select[name=webhook]`, '2');
    await submit(`${rule} button[type=submit]`);
    const ruleRows = await rows('h2:has-text("Rules") + table tbody tr');
    expect(ruleRows).toEqual([
      '1 | Production criticals | a new card | production | critical, major | On-call <ops> | Send testRemove',
      '2 | More than 2 reports in 5 min | more than 2 reports in 5 min | any | any | #errors channel | Send testRemove',
    ]);

    await submit('tr:has-text("Production criticals") button:has-text("Send test")');
    expect(await page.textContent('p.ok')).toBe(
      'Test alert #1 sent; its outcome is in the log below.',
    );
    const test = ops.received.at(-1)!;
    expect(verifyAlert(test.raw, test.headers, secret)).toBe(true);
    expect(test.path).toBe('/svc/hooks/alerts?key=hidden');

    // Reports fire both rules; a development report and a minor one fire nothing.
    await post('Payment token missing', 'critical', ['env:production']);
    await post('Payment token missing', 'critical', ['env:production']);
    await post('Payment token missing', 'critical', ['env:production']);
    await post('Only on my laptop', 'critical', ['env:development']);
    await waitFor(
      'both alerts',
      () => (ops.received.length >= 2 && chat.received.length >= 1) || undefined,
    );
    // The ops receiver goes down: the next new card waits in the log with its next retry.
    ops.setMode('500');
    await post('Inventory sync timed out', 'major', ['env:production']);
    await waitFor('a 500', () => ops.received.some((r) => r.status === 500) || undefined);
    await server.flushAlerts();
    await page.goto(`${server.url}/board/projects/${projectId}/alerts`);
    const log = await rows('table.deliveries tbody tr');
    // Each cell in order: id, raised, event, rule, card, receiver, state, attempts, last answer,
    // next retry; times and the receivers' ports vary.
    const masked = log.map((r) =>
      r
        .replaceAll(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/g, 'WHEN')
        .replaceAll(/http:\/\/127\.0\.0\.1:\d+\/…/g, 'RECEIVER'),
    );
    expect(masked).toEqual([
      '4 | WHEN | New card | Production criticals | #3 Inventory sync timed out | On-call <ops> RECEIVER | pending | 1 | HTTP 500 | WHEN',
      '3 | WHEN | Frequency | More than 2 reports in 5 min | #1 Payment token missing | #errors channel RECEIVER | delivered | 1 | HTTP 200 | ',
      '2 | WHEN | New card | Production criticals | #1 Payment token missing | On-call <ops> RECEIVER | delivered | 1 | HTTP 200 | ',
      '1 | WHEN | Test | Production criticals | none | On-call <ops> RECEIVER | delivered | 1 | HTTP 200 | ',
    ]);
    await shot('alerts');
    expect(problems).toEqual([]);
  });
});
