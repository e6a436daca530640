import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { alertBody, alertPayload, slackAlert, testPayload } from '../../src/alerts/payload.ts';
import { alertHeaders, newWebhookSecret } from '../../src/alerts/sign.ts';
import type { AlertCardRow, AlertRule, Firing } from '../../src/alerts/types.ts';
import { validPayload, validSlack, verifyAlert } from './receiver.ts';

// What a webhook receives, from the pure builders: the JSON payload against the spec's schema, the
// Slack message with every report value escaped, and the signature a receiver recomputes.

const rule: AlertRule = {
  id: 4,
  projectId: 7,
  webhookId: 2,
  name: 'Prod <critical> & co',
  event: 'regression',
  environments: ['production'],
  severities: ['critical'],
  threshold: null,
  windowMinutes: 30,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const card: AlertCardRow = {
  id: 12,
  project_id: 7,
  title: 'TypeError: a <b> & c | d',
  priority: 'high',
  severity: 'critical',
  tags: '["env:production","release:3.0"]',
  status: 'todo',
  occurrence_count: 1234,
  file_name: 'src/pay.ts',
  line_number: 40,
  created_at: Date.UTC(2026, 0, 2),
  last_seen_at: Date.UTC(2026, 0, 3),
  regressions: 2,
};
const firing: Firing = {
  rule,
  cardId: 12,
  event: 'regression',
  environment: 'production',
  release: '3.0',
  count: null,
};
const ctx = (publicUrl?: string) => ({
  deliveryId: 99,
  projectId: 7,
  projectName: 'Web & <Shop>',
  card,
  publicUrl,
  now: Date.UTC(2026, 0, 4),
});

describe('alert payloads', () => {
  it('the JSON payload matches the spec and names the card as it is', () => {
    const p = alertPayload(firing, ctx('https://errors.acme.test'));
    expect(validPayload(p), JSON.stringify(validPayload.errors)).toBe(true);
    expect(p).toEqual({
      id: 99,
      event: 'regression',
      created_at: '2026-01-04T00:00:00.000Z',
      project: { id: 7, name: 'Web & <Shop>' },
      rule: {
        id: 4,
        name: 'Prod <critical> & co',
        event: 'regression',
        environments: ['production'],
        severities: ['critical'],
        threshold: null,
        window_minutes: 30,
      },
      card: {
        id: 12,
        title: 'TypeError: a <b> & c | d',
        severity: 'critical',
        priority: 'high',
        status: 'todo',
        occurrence_count: 1234,
        regressions: 2,
        file_name: 'src/pay.ts',
        line_number: 40,
        tags: ['env:production', 'release:3.0'],
        created_at: '2026-01-02T00:00:00.000Z',
        last_seen_at: '2026-01-03T00:00:00.000Z',
        url: 'https://errors.acme.test/board/projects/7/cards/12',
      },
      environment: 'production',
      release: '3.0',
      count: null,
    });
    expect(alertPayload(firing, ctx()).card!.url).toBeNull();
    const test = testPayload(rule, { ...ctx(), card: null });
    expect(validPayload(test), JSON.stringify(validPayload.errors)).toBe(true);
    expect(test).toMatchObject({ event: 'test', card: null, count: null, rule: { id: 4 } });
  });

  it('the Slack message escapes every report value, field by field', () => {
    const m = slackAlert(alertPayload(firing, ctx('https://errors.acme.test')));
    expect(validSlack(m), JSON.stringify(validSlack.errors)).toBe(true);
    expect(m.text).toBe(
      'Regression in Web &amp; &lt;Shop&gt; (production): TypeError: a &lt;b&gt; &amp; c | d',
    );
    expect(m.blocks).toHaveLength(2);
    expect(m.blocks[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*Regression* in *Web &amp; &lt;Shop&gt; (production)*\n*<https://errors.acme.test/board/projects/7/cards/12|TypeError: a &lt;b&gt; &amp; c \u2223 d>*',
      },
    });
    expect(m.blocks[1]).toEqual({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: 'critical · high priority · 1234 reports in all · src/pay.ts:40 · release 3.0 · rule “Prod &lt;critical&gt; &amp; co”',
        },
      ],
    });
    const frequency = slackAlert(
      alertPayload(
        { ...firing, event: 'frequency', count: 51, release: null, environment: null },
        ctx(),
      ),
    );
    expect(frequency.text).toBe(
      '51 reports in 30 min in Web &amp; &lt;Shop&gt;: TypeError: a &lt;b&gt; &amp; c | d',
    );
    expect((frequency.blocks[0] as unknown as { text: { text: string } }).text.text).toBe(
      '*51 reports in 30 min* in *Web &amp; &lt;Shop&gt;*\n*TypeError: a &lt;b&gt; &amp; c | d*',
    );
    const test = slackAlert(testPayload(rule, { ...ctx(), card: null }));
    expect(test.text).toBe(
      'Test alert: rule “Prod &lt;critical&gt; &amp; co” of Web &amp; &lt;Shop&gt; reaches this channel.',
    );
    expect(test.blocks).toHaveLength(1);
  });

  it('a body is exactly what is signed, and a receiver verifies it with the secret as shown', () => {
    const { secret, secretHash } = newWebhookSecret();
    expect(secret).toMatch(/^svc_whsec_[0-9a-f]{64}$/);
    expect(secretHash).toEqual(createHash('sha256').update(secret).digest());
    const body = alertBody('json', alertPayload(firing, ctx()));
    const at = Date.UTC(2026, 0, 4, 12);
    const headers = alertHeaders({ id: 99, event: 'regression', body, secretHash }, at);
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'x-svc-delivery': '99',
      'x-svc-event': 'regression',
      'x-svc-timestamp': String(at / 1000),
    });
    // The receiver's key is the secret string; the service's is its hash (longer than HMAC's block).
    const bodyHash = createHash('sha256').update(body).digest('hex');
    expect(headers['x-svc-signature']).toBe(
      createHmac('sha256', secret)
        .update(`${at / 1000}.POST./svc/alert.${bodyHash}`)
        .digest('hex'),
    );
    expect(verifyAlert(Buffer.from(body), headers, secret, at / 1000)).toBe(true);
    expect(verifyAlert(Buffer.from(body), headers, secret, at / 1000 + 301)).toBe(false); // a replay
    const slack = alertHeaders({ id: 1, event: 'new', body, secretHash: null }, at);
    expect(slack['x-svc-signature']).toBeUndefined();
    expect(JSON.parse(alertBody('slack', alertPayload(firing, ctx())))).toHaveProperty('blocks');
  });
});
