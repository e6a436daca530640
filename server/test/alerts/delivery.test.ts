import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { report, type Service, spawnService } from '../helpers.ts';
import { STORE_KIND } from '../store-kind.ts';
import {
  type Receiver,
  sleep,
  startReceiver,
  validPayload,
  validSlack,
  verifyAlert,
  waitFor,
} from './receiver.ts';

// Alerts from a real service process (SQLite here, PostgreSQL in the server-pg project) to a real
// HTTP receiver on 127.0.0.1, set up with the real CLI: a rule's webhook arrives once, signed (the
// receiver verifies it as docs/alerts.md says), filtered by environment and severity; the Slack
// message field by field; a receiver that answers 500, answers nothing or is stopped delays the
// alert without slowing ingestion and without losing it, also across a restart of the service.

const FAST = {
  tickMs: 100,
  retryBaseMs: 300,
  retryCapMs: 1200,
  timeoutMs: 1500,
  maxAttempts: 30,
  publicUrl: 'https://errors.acme.test/',
};

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function service(alerts: Record<string, unknown> = FAST, extra = {}) {
  const svc = await spawnService({ alerts, ...extra });
  open.push(svc);
  return svc;
}
async function receiver(mode: Parameters<typeof startReceiver>[0] = 'ok') {
  const r = await startReceiver(mode);
  open.push({ close: () => r.stop().catch(() => {}) });
  return r;
}
async function cli(svc: Service, ...args: string[]) {
  const r = await svc.cli(...args);
  expect(r.code, r.output).toBe(0);
  return r.stdout;
}
async function webhook(svc: Service, url: string, format = 'json') {
  const out = JSON.parse(
    await cli(
      svc,
      'webhooks',
      'add',
      '--project',
      String(svc.projectId),
      '--url',
      url,
      '--format',
      format,
      '--json',
    ),
  ) as { id: number; secret: string | null };
  return out;
}
async function rule(svc: Service, webhookId: number, ...args: string[]) {
  return JSON.parse(
    await cli(
      svc,
      'alerts',
      'add',
      '--project',
      String(svc.projectId),
      '--webhook',
      String(webhookId),
      '--json',
      ...args,
    ),
  ) as { id: number };
}
async function send(svc: Service, body: Parameters<typeof report>[0]) {
  const res = await svc.post(report(body), svc.bearer());
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { data: { id: number } }).data.id;
}
const log = async (svc: Service) =>
  JSON.parse(await cli(svc, 'alerts', 'log', '--project', String(svc.projectId), '--json')) as {
    id: number;
    event: string;
    state: string;
    attempts: number;
    lastStatus: number | null;
    lastError: string | null;
    nextAttemptAt: string | null;
    cardId: number | null;
  }[];
const at = (r: Receiver, path: string) => r.received.filter((x) => x.path === path);

describe(`alerts to webhooks (${STORE_KIND})`, () => {
  it('a rule fires once per card, signed, filtered by environment and severity; Slack field by field', async () => {
    const r = await receiver();
    const svc = await service();
    const json = await webhook(svc, r.url('/json'));
    const slack = await webhook(svc, r.url('/slack'), 'slack');
    expect(json.secret).toMatch(/^svc_whsec_[0-9a-f]{64}$/);
    expect(slack.secret).toBeNull();
    await rule(
      svc,
      json.id,
      '--on',
      'new',
      '--env',
      'production',
      '--severity',
      'critical',
      '--severity',
      'major',
    );
    await rule(svc, slack.id, '--on', 'regression', '--name', 'Back <again> & again');

    const card = await send(svc, {
      title: 'Checkout failed',
      severity: 'major',
      tags: ['env:production', 'release:2.4.1'],
      file_name: 'src/cart.ts',
      line_number: 12,
    });
    await send(svc, { title: 'Checkout failed', tags: ['env:production'] }); // a repeat: no news
    await send(svc, { title: 'Dev only', severity: 'critical', tags: ['env:development'] });
    await send(svc, { title: 'Minor thing', severity: 'minor', tags: ['env:production'] });
    const [first] = await waitFor('the JSON alert', () => {
      const got = at(r, '/json');
      return got.length > 0 ? got : undefined;
    });
    await sleep(1500); // more turns: nothing else may arrive
    expect(at(r, '/json')).toHaveLength(1);

    expect(verifyAlert(first!.raw, first!.headers, json.secret!)).toBe(true);
    expect(verifyAlert(first!.raw, first!.headers, `${json.secret!}x`)).toBe(false);
    const tampered = Buffer.from(first!.raw.toString().replace('Checkout', 'Checkin'));
    expect(verifyAlert(tampered, first!.headers, json.secret!)).toBe(false);
    expect(validPayload(first!.json), JSON.stringify(validPayload.errors)).toBe(true);
    const p = first!.json;
    expect(first!.headers['x-svc-event']).toBe('new');
    expect(first!.headers['x-svc-delivery']).toBe(String(p.id));
    expect(first!.headers['content-type']).toBe('application/json');
    expect(p).toMatchObject({
      event: 'new',
      project: { id: svc.projectId, name: 'Fixture project' },
      rule: {
        event: 'new',
        environments: ['production'],
        severities: ['critical', 'major'],
        threshold: null,
        window_minutes: 60,
      },
      card: {
        id: card,
        title: 'Checkout failed',
        severity: 'major',
        status: 'todo',
        file_name: 'src/cart.ts',
        line_number: 12,
        url: `https://errors.acme.test/board/projects/${svc.projectId}/cards/${card}`,
      },
      environment: 'production',
      release: '2.4.1',
      count: null,
    });
    expect(Date.parse(p.created_at as string)).toBeGreaterThan(0);

    // Resolved, then reported again: the Slack-compatible webhook hears of the regression.
    await cli(svc, 'cards', 'set-status', '--card', String(card), '--status', 'done');
    await send(svc, { title: 'Checkout failed', tags: ['env:staging'] }); // another environment: no regression
    await send(svc, { title: 'Checkout failed', tags: ['env:production', 'release:2.4.2'] });
    const [msg] = await waitFor('the Slack alert', () => {
      const got = at(r, '/slack');
      return got.length > 0 ? got : undefined;
    });
    expect(msg!.headers['x-svc-signature']).toBeUndefined();
    expect(msg!.headers['x-svc-event']).toBe('regression');
    expect(validSlack(msg!.json), JSON.stringify(validSlack.errors)).toBe(true);
    const link = `https://errors.acme.test/board/projects/${svc.projectId}/cards/${card}`;
    expect(msg!.json).toEqual({
      text: 'Regression in Fixture project (production): Checkout failed',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: `*Regression* in *Fixture project (production)*\n*<${link}|Checkout failed>*`,
          },
        },
        {
          type: 'context',
          elements: [
            {
              type: 'mrkdwn',
              text: 'major · medium priority · 4 reports in all · src/cart.ts:12 · release 2.4.2 · rule “Back &lt;again&gt; &amp; again”',
            },
          ],
        },
      ],
    });
    await sleep(1000);
    expect(at(r, '/slack')).toHaveLength(1);
    expect(at(r, '/json')).toHaveLength(1); // the JSON rule listens to new cards only
    const rows = await log(svc);
    expect(rows.map((d) => [d.event, d.state, d.attempts, d.lastStatus, d.cardId])).toEqual([
      ['regression', 'delivered', 1, 200, card],
      ['new', 'delivered', 1, 200, card],
    ]);
  });

  it('more than N reports in M minutes fires once per window', async () => {
    const r = await receiver();
    const svc = await service();
    const hook = await webhook(svc, r.url('/freq'));
    await rule(
      svc,
      hook.id,
      '--on',
      'frequency',
      '--more-than',
      '3',
      '--minutes',
      '5',
      '--env',
      'production',
    );
    for (let i = 0; i < 3; i++) await send(svc, { title: 'Hot loop', tags: ['env:production'] });
    for (let i = 0; i < 5; i++) await send(svc, { title: 'Hot loop', tags: ['env:development'] });
    await sleep(1500); // three production reports, five elsewhere: not more than three
    expect(at(r, '/freq')).toHaveLength(0);
    await send(svc, { title: 'Hot loop', tags: ['env:production'] });
    const [hit] = await waitFor('the frequency alert', () => {
      const got = at(r, '/freq');
      return got.length > 0 ? got : undefined;
    });
    expect(hit!.json).toMatchObject({
      event: 'frequency',
      count: 4,
      environment: 'production',
      rule: { event: 'frequency', threshold: 3, window_minutes: 5 },
    });
    for (let i = 0; i < 6; i++) await send(svc, { title: 'Hot loop', tags: ['env:production'] });
    await sleep(1500);
    expect(at(r, '/freq')).toHaveLength(1); // once per card per window
  });

  it('a receiver that answers 500, hangs or is stopped gets the alert later, once; ingestion never waits', async () => {
    const r = await receiver('500');
    const svc = await service({ ...FAST, timeoutMs: 4000 });
    const hook = await webhook(svc, r.url('/down'));
    await rule(svc, hook.id, '--on', 'new');
    const card = await send(svc, { title: 'Through the outage' });
    await waitFor(
      'a 500 in the log',
      async () => (await log(svc))[0]?.lastStatus === 500 || undefined,
    );
    const pending = (await log(svc))[0]!;
    expect(pending).toMatchObject({ state: 'pending', lastStatus: 500, cardId: card });
    expect(Date.parse(pending.nextAttemptAt!)).toBeGreaterThan(0);

    // Hanging: each attempt is held open until its 4 s deadline. Reports are answered meanwhile:
    // count those sent and answered while an attempt was held open throughout.
    r.setMode('hang');
    await waitFor('an attempt held open', () => r.hanging() > 0 || undefined);
    let answeredWhileHung = 0;
    for (let i = 0; i < 200 && answeredWhileHung < 20; i++) {
      const before = r.hanging();
      await send(svc, { title: 'Through the outage' }); // repeats: no new alerts
      if (before > 0 && r.hanging() > 0) answeredWhileHung++;
    }
    expect(answeredWhileHung).toBe(20);
    await waitFor(
      'a timeout in the log',
      async () =>
        /no answer within 4000 ms/.test((await log(svc))[0]?.lastError ?? '') || undefined,
    );

    // Stopped: connections refused.
    await r.stop();
    await waitFor(
      'a refused attempt in the log',
      async () => /ECONNREFUSED/.test((await log(svc))[0]?.lastError ?? '') || undefined,
    );
    const answered500 = r.received.length; // every answered attempt so far was a 500

    await r.restart('ok');
    await waitFor('the alert after the outage', () => r.received.length > answered500 || undefined);
    await sleep(1000);
    expect(r.received).toHaveLength(answered500 + 1);
    const ids = new Set(r.received.map((x) => x.headers['x-svc-delivery']));
    expect(ids.size).toBe(1); // one delivery, retried
    const cards = r.received.map((x) => (x.json as { card: { id: number } }).card.id);
    expect(new Set(cards)).toEqual(new Set([card]));
    const done = (await log(svc))[0]!;
    expect(done.state).toBe('delivered');
    expect(done.attempts).toBeGreaterThanOrEqual(4); // 500, no answer, refused, delivered
  });

  it('keeps its retries across a restart of the service; gives up after the last attempt or a 404', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-alerts-restart-'));
    open.push({ close: async () => rmSync(dataDir, { recursive: true, force: true }) });
    const r = await receiver('500');
    const settings = { ...FAST, maxAttempts: 3, retryBaseMs: 2000, retryCapMs: 2000 };
    const first = await spawnService({ alerts: settings, dataDir });
    open.push(first);
    const hook = await webhook(first, r.url('/flaky'));
    await rule(first, hook.id, '--on', 'new');
    await send(first, { title: 'Survives a restart' });
    await waitFor(
      'a first attempt',
      async () => (await log(first))[0]?.attempts === 1 || undefined,
    );
    // The service stops with the delivery still pending; a new process takes it over.
    await first.close();
    open.splice(open.indexOf(first), 1);
    const next = await service(settings, {
      dataDir,
      databaseUrl: first.databaseUrl,
      noSeed: true,
    });
    const second = { ...next, projectId: first.projectId, bearer: () => first.bearer() } as Service;
    const [failed] = await waitFor('the delivery failed', async () => {
      const all = await log(second);
      return all[0]?.state === 'failed' ? all : undefined;
    });
    expect(failed).toMatchObject({ attempts: 3, lastStatus: 500, nextAttemptAt: null });
    expect(r.received).toHaveLength(3);

    // A 404 is not worth another attempt: failed at once.
    r.setMode('404');
    await send(second, { title: 'Nobody home' });
    const [refused] = await waitFor('the 404', async () => {
      const all = await log(second);
      return all[0]?.lastStatus === 404 && all[0].state === 'failed' ? all : undefined;
    });
    expect(refused).toMatchObject({ state: 'failed', attempts: 1, nextAttemptAt: null });
  });
});
