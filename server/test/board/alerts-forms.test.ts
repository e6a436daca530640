import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../alerts/receiver.ts';
import { startTriage, type Triage } from './triage-fixture.ts';

// The alerts page's forms over real HTTP (the triage fixture's service, SQLite or PostgreSQL):
// the form token and same-origin rule every POST needs, a secret shown once, report values and
// names escaped, bad setups answered 400 with the reason, ids of another project refused.
let t: Triage;
let receiver: Receiver;
beforeAll(async () => {
  t = await startTriage();
  receiver = await startReceiver('ok');
});
afterAll(async () => {
  await receiver?.stop();
  await t?.close();
});

const alerts = () => `/board/projects/${t.projectId}/alerts`;
const addWebhook = (fields: [string, string][], headers: Record<string, string> = {}) =>
  t.post(`${alerts()}/webhooks`, fields, headers);

describe('the alerts page', () => {
  it('refuses forms without the token or from another site, changing nothing', async () => {
    const fields: [string, string][] = [['url', receiver.url('/x')]];
    for (const [extra, headers] of [
      [[], {}],
      [[['csrf', '0'.repeat(64)]], {}],
      [[['csrf', t.csrf]], { 'sec-fetch-site': 'cross-site' }],
      [[['csrf', t.csrf]], { origin: 'https://evil.test' }],
    ] as [[string, string][], Record<string, string>][]) {
      const res = await addWebhook([...fields, ...extra], headers);
      expect(res.status, JSON.stringify([extra, headers])).toBe(403);
    }
    expect(await t.server.alerts!.listWebhooks(t.projectId)).toEqual([]);
    const page = await (await t.get(alerts())).text();
    expect(page).toContain('No webhooks yet.');
    expect(page).toContain('Add a webhook first: a rule sends to one.');
  });

  it('adds a webhook, shows its secret once, escapes names and lists only its origin', async () => {
    const res = await addWebhook([
      ['csrf', t.csrf],
      ['name', '<img src=x onerror=alert(1)>'],
      ['url', receiver.url('/T0/hidden-path?token=abc')],
      ['format', 'json'],
    ]);
    expect(res.status).toBe(200);
    const page = await res.text();
    const secret = /<code class="secret">(svc_whsec_[0-9a-f]{64})<\/code>/.exec(page)?.[1];
    expect(secret).toBeDefined();
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('hidden-path');
    expect(page).toContain(`${receiver.url('/')}…`);
    const again = await (await t.get(alerts())).text();
    expect(again).not.toContain(secret!); // shown once
    expect(again).not.toContain('svc_whsec_');
  });

  it('adds, tests and removes a rule; refuses bad input with 400 and ids of another project', async () => {
    const [hook] = await t.server.alerts!.listWebhooks(t.projectId);
    const bad = await t.post(`${alerts()}/rules`, [
      ['csrf', t.csrf],
      ['event', 'frequency'],
      ['webhook', String(hook!.id)],
    ]);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(
      'The threshold must be a whole number from 1 to 1000000000.',
    );
    const badUrl = await addWebhook([
      ['csrf', t.csrf],
      ['url', 'javascript:alert(1)'],
    ]);
    expect(badUrl.status).toBe(400);
    expect(await badUrl.text()).toContain('must be an absolute http:// or https:// URL');

    const added = await t.post(`${alerts()}/rules`, [
      ['csrf', t.csrf],
      ['event', 'new'],
      ['name', 'Prod & <criticals>'],
      ['environments', 'production'],
      ['severity', 'critical'],
      ['severity', 'major'],
      ['window', '30'],
      ['webhook', String(hook!.id)],
    ]);
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe(`${alerts()}?done=rule-added`);
    const [rule] = await t.server.alerts!.listRules(t.projectId);
    expect(rule).toMatchObject({
      name: 'Prod & <criticals>',
      event: 'new',
      environments: ['production'],
      severities: ['critical', 'major'],
      windowMinutes: 30,
    });
    const page = await (await t.get(`${alerts()}?done=rule-added`)).text();
    expect(page).toContain('Rule added.');
    expect(page).toContain('Prod &amp; &lt;criticals&gt;');

    const tested = await t.post(`${alerts()}/rules/${rule!.id}/test`, [['csrf', t.csrf]]);
    expect(tested.status).toBe(303);
    const id = /tested=(\d+)$/.exec(tested.headers.get('location') ?? '')?.[1];
    expect(receiver.received.at(-1)!.json).toMatchObject({ event: 'test', id: Number(id) });
    const log = await (await t.get(tested.headers.get('location')!)).text();
    expect(log).toContain(`Test alert #${id} sent; its outcome is in the log below.`);
    expect(log).toMatch(
      /<td>Test<\/td><td>Prod &amp; &lt;criticals&gt;<\/td>.*<span class="status st-delivered">delivered<\/span><\/td><td class="num">1<\/td><td>HTTP 200<\/td>/,
    );

    // Another project's page cannot remove this project's rule or webhook.
    const elsewhere = `/board/projects/${t.otherProjectId}/alerts`;
    const cross = await t.post(`${elsewhere}/rules/${rule!.id}/remove`, [['csrf', t.csrf]]);
    expect(cross.status).toBe(400);
    expect(await cross.text()).toContain('There is no such item in this project.');
    expect(await t.server.alerts!.listRules(t.projectId)).toHaveLength(1);

    const removed = await t.post(`${alerts()}/webhooks/${hook!.id}/remove`, [['csrf', t.csrf]]);
    expect(removed.headers.get('location')).toBe(`${alerts()}?done=webhook-removed`);
    expect(await t.server.alerts!.listRules(t.projectId)).toEqual([]);
    expect((await t.get(`/board/projects/999999/alerts`)).status).toBe(404);
  });
});
