import { describe, expect, it } from 'vitest';
import { addressPolicy, AddressPolicyError, permittedAddresses } from '../../src/alerts/address.ts';
import { retryAt } from '../../src/alerts/backoff.ts';
import { planFirings } from '../../src/alerts/match.ts';
import { AlertSetupError, ruleOf, shownUrl, webhookUrl } from '../../src/alerts/setup.ts';
import type { AlertCardRow, AlertRule, AlertWork } from '../../src/alerts/types.ts';

// The pure parts of alerting: which rules fire, what a person may set up, which addresses a
// webhook may reach, and when a delivery is tried again.

const rule = (over: Partial<AlertRule>): AlertRule => ({
  id: 1,
  projectId: 7,
  webhookId: 3,
  name: 'r',
  event: 'new',
  environments: null,
  severities: null,
  threshold: null,
  windowMinutes: 60,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const card = (id: number, over: Partial<AlertCardRow> = {}): AlertCardRow => ({
  id,
  project_id: 7,
  title: `Card ${id}`,
  priority: 'medium',
  severity: 'major',
  tags: '[]',
  status: 'todo',
  occurrence_count: 1,
  file_name: null,
  line_number: null,
  created_at: 0,
  last_seen_at: 0,
  regressions: 0,
  ...over,
});
const work = (over: Partial<AlertWork>): AlertWork => ({
  notices: [],
  rules: [],
  counted: [],
  cards: new Map(),
  projects: new Map([[7, 'Web']]),
  webhooks: new Map(),
  ...over,
});
const notice = (
  cardId: number,
  event: 'new' | 'regression',
  environment: string | null,
  id = cardId,
) => ({
  id,
  projectId: 7,
  cardId,
  event,
  environment,
  release: null,
  at: 0,
});

describe('planFirings', () => {
  it('fires the rules of the event, environment and severity; ignored cards fire nothing', () => {
    const rules = [
      rule({ id: 1, event: 'new', environments: ['production'] }),
      rule({ id: 2, event: 'new', severities: ['critical'] }),
      rule({ id: 3, event: 'regression' }),
      rule({ id: 4, event: 'new', projectId: 8 }),
    ];
    const cards = new Map([
      [10, card(10)],
      [11, card(11, { severity: 'critical' })],
      [12, card(12, { status: 'ignored', severity: 'critical' })],
    ]);
    const fired = planFirings(
      work({
        rules,
        cards,
        notices: [
          notice(10, 'new', 'production'),
          notice(11, 'new', null),
          notice(12, 'new', 'production'),
          notice(10, 'regression', 'staging', 99),
          notice(10, 'new', 'production', 100), // the same pair again in one turn: once
        ],
      }),
    );
    expect(fired.map((f) => [f.rule.id, f.cardId, f.event, f.environment])).toEqual([
      [1, 10, 'new', 'production'],
      [2, 11, 'new', null],
      [3, 10, 'regression', 'staging'],
    ]);
  });

  it('fires a frequency rule on more than its threshold only', () => {
    const freq = rule({ id: 5, event: 'frequency', threshold: 3, windowMinutes: 5 });
    const fired = planFirings(
      work({
        rules: [freq],
        cards: new Map([
          [10, card(10)],
          [11, card(11)],
        ]),
        counted: [
          { ruleId: 5, cardId: 10, count: 3, environment: null },
          { ruleId: 5, cardId: 11, count: 4, environment: 'production' },
          { ruleId: 6, cardId: 10, count: 99, environment: null }, // a rule removed meanwhile
        ],
      }),
    );
    expect(fired.map((f) => [f.rule.id, f.cardId, f.count, f.environment])).toEqual([
      [5, 11, 4, 'production'],
    ]);
  });
});

describe('ruleOf and webhookUrl', () => {
  const base = { projectId: 7, webhookId: 3 };
  it('fills defaults and reads lists from comma-separated text', () => {
    expect(ruleOf({ ...base, event: 'new' })).toEqual({
      ...base,
      name: 'New cards',
      event: 'new',
      environments: null,
      severities: null,
      threshold: null,
      windowMinutes: 60,
    });
    expect(
      ruleOf({
        ...base,
        event: 'frequency',
        threshold: '100',
        windowMinutes: '5',
        environments: ' production, staging ,production',
        severities: ['critical', 'major'],
      }),
    ).toMatchObject({
      name: 'More than 100 reports in 5 min',
      environments: ['production', 'staging'],
      severities: ['critical', 'major'],
      threshold: 100,
      windowMinutes: 5,
    });
  });

  it('refuses what it cannot run, saying why', () => {
    const refused = (input: Parameters<typeof ruleOf>[0]) => {
      try {
        ruleOf(input);
      } catch (error) {
        expect(error).toBeInstanceOf(AlertSetupError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refused({ ...base, event: 'sometimes' })).toBe(
      'A rule fires on new, regression, frequency.',
    );
    expect(refused({ ...base, event: 'new', threshold: 5 })).toBe(
      'Only a frequency rule has a threshold.',
    );
    expect(refused({ ...base, event: 'frequency' })).toBe(
      'The threshold must be a whole number from 1 to 1000000000.',
    );
    expect(refused({ ...base, event: 'frequency', threshold: 2, windowMinutes: 1441 })).toBe(
      'The window (minutes) must be a whole number from 1 to 1440.',
    );
    expect(refused({ ...base, event: 'new', severities: 'fatal' })).toBe(
      'A severity is one of critical, major, moderate, minor.',
    );
    expect(refused({ ...base, event: 'new', name: 'a\u0007b' })).toBe(
      'A name is at most 100 printable characters.',
    );
    expect(refused({ ...base, event: 'new', environments: 'x'.repeat(47) })).toMatch(/at most 46/);
  });

  it('takes absolute http(s) URLs without credentials, and shows only their origin', () => {
    expect(webhookUrl(' https://hooks.slack.com/services/T0/B0/XYZ#frag ').href).toBe(
      'https://hooks.slack.com/services/T0/B0/XYZ',
    );
    for (const bad of ['ftp://x.test/', 'hooks.slack.com/x', 'https://user:pw@x.test/', '']) {
      expect(() => webhookUrl(bad)).toThrow(AlertSetupError);
    }
    expect(shownUrl('https://hooks.slack.com/services/T0/B0/XYZ?token=1')).toBe(
      'https://hooks.slack.com/…',
    );
    expect(shownUrl('http://127.0.0.1:9000/')).toBe('http://127.0.0.1:9000');
  });
});

describe('addressPolicy', () => {
  it('refuses metadata, link-local, unspecified and multicast addresses by default', () => {
    const policy = addressPolicy();
    for (const ok of [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '192.168.0.9',
      '93.184.216.34',
      '2001:db8::1',
    ]) {
      expect(policy.permits(ok), ok).toBe(true);
    }
    for (const no of [
      '169.254.169.254',
      'fe80::1',
      '0.0.0.0',
      '::',
      '224.0.0.1',
      'fd00:ec2::254',
      '::ffff:169.254.169.254',
    ]) {
      expect(policy.permits(no), no).toBe(false);
    }
  });

  it('narrows with deny, re-opens with allow (which wins), and rejects what it cannot read', () => {
    const policy = addressPolicy({
      deny: ['loopback,private', 'link-local'],
      allow: ['10.1.2.0/24'],
    });
    expect(policy.permits('127.0.0.1')).toBe(false);
    expect(policy.permits('10.9.9.9')).toBe(false);
    expect(policy.permits('10.1.2.3')).toBe(true);
    expect(policy.permits('93.184.216.34')).toBe(true);
    const only = addressPolicy({ deny: ['all'], allow: ['203.0.113.7'] });
    expect([only.permits('203.0.113.7'), only.permits('203.0.113.8')]).toEqual([true, false]);
    expect(addressPolicy({ deny: ['none'] }).permits('169.254.169.254')).toBe(true);
    expect(() => addressPolicy({ deny: ['intranet'] })).toThrow(AddressPolicyError);
    expect(() => addressPolicy({ allow: ['10.0.0.0/33'] })).toThrow(AddressPolicyError);
  });

  it('checks every address a host name resolves to', async () => {
    await expect(
      permittedAddresses('localhost', addressPolicy({ deny: ['loopback'] })),
    ).rejects.toThrow(AddressPolicyError);
    expect(await permittedAddresses('127.0.0.1', addressPolicy())).toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
  });
});

describe('retryAt', () => {
  const schedule = { baseMs: 1000, capMs: 8000, maxAttempts: 5 };
  it('doubles the wait with equal jitter up to the cap, honours a longer Retry-After, then gives up', () => {
    expect([1, 2, 3, 4].map((n) => retryAt(schedule, n, 0, 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((n) => retryAt(schedule, n, 0, 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryAt(schedule, 1, 100, 0, 5000)).toBe(5100);
    expect(retryAt(schedule, 1, 0, 0, 60_000)).toBe(8000); // at most the cap
    expect(retryAt(schedule, 5, 0, 0)).toBeNull();
  });
});
