import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver, validPayload, verifyAlert } from '../alerts/receiver.ts';
import { runCli } from '../helpers.ts';
import { testDatabaseUrl } from '../store-kind.ts';

// `svc-server webhooks` and `svc-server alerts`, the real binary (dist/cli.js) on a temp data dir
// or a fresh PostgreSQL database, with a real receiver on 127.0.0.1 for `alerts test`.
const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-alerts-'));
const databaseUrl = await testDatabaseUrl();
const store = databaseUrl ? ['--database-url', databaseUrl] : ['--data-dir', dataDir];
const cli = (...args: string[]) => runCli([...args, ...store]);
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver('ok');
  expect((await cli('account', 'create', '--name', 'Acme', '--plan', 'team')).code).toBe(0);
  expect((await cli('project', 'create', '--account', '1', '--name', 'Web')).code).toBe(0);
  expect((await cli('project', 'create', '--account', '1', '--name', 'Docs')).code).toBe(0);
});
afterAll(async () => {
  await receiver?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The one line a refused command prints (and its exit code). */
async function refused(...args: string[]) {
  const r = await cli(...args);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  const lines = r.output.trim().split('\n');
  expect(lines[1]).toBe('Run "svc-server help" for usage.');
  expect(lines).toHaveLength(2);
  return lines[0];
}

describe('svc-server webhooks and alerts', () => {
  it('adds a signed webhook (its secret printed once), lists it without its path, tests a rule', async () => {
    const url = receiver.url('/svc/T0123/secret-path');
    const added = await cli('webhooks', 'add', '--project', '1', '--url', url, '--name', 'ops');
    expect(added.code, added.output).toBe(0);
    const secret = /secret: (svc_whsec_[0-9a-f]{64})\n/.exec(added.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(added.stdout).toContain(`Webhook #1 "ops" (json) for project #1: ${receiver.url('/')}…`);

    const list = await cli('webhooks', 'list', '--project', '1');
    expect(list.stdout).toContain('ops');
    expect(list.stdout).not.toContain('secret-path');
    expect(list.stdout).not.toContain('svc_whsec_');
    const json = JSON.parse((await cli('webhooks', 'list', '--project', '1', '--json')).stdout);
    expect(json).toEqual([
      {
        id: 1,
        projectId: 1,
        name: 'ops',
        url: `${receiver.url('/')}…`,
        format: 'json',
        createdAt: expect.any(String),
      },
    ]);

    const rule = await cli(
      'alerts',
      'add',
      '--project',
      '1',
      '--webhook',
      '1',
      '--on',
      'frequency',
      '--more-than',
      '50',
      '--minutes',
      '10',
      '--env',
      'production',
      '--severity',
      'critical',
    );
    expect(rule.stdout.trim()).toBe(
      'Alert rule #1 "More than 50 reports in 10 min" sends to webhook #1.',
    );
    const rules = JSON.parse((await cli('alerts', 'list', '--project', '1', '--json')).stdout);
    expect(rules).toMatchObject([
      {
        id: 1,
        event: 'frequency',
        threshold: 50,
        windowMinutes: 10,
        environments: ['production'],
        severities: ['critical'],
      },
    ]);

    const test = await cli('alerts', 'test', '1');
    expect(test.code, test.output).toBe(0);
    expect(test.stdout.trim()).toBe('Test alert #1: delivered (HTTP 200).');
    const got = receiver.received.at(-1)!;
    expect(got.path).toBe('/svc/T0123/secret-path');
    expect(verifyAlert(got.raw, got.headers, secret!)).toBe(true);
    expect(validPayload(got.json)).toBe(true);
    expect(got.json).toMatchObject({
      event: 'test',
      card: null,
      rule: { id: 1 },
      project: { id: 1, name: 'Web' },
    });

    receiver.setMode('500');
    const failed = await cli('alerts', 'test', '1');
    receiver.setMode('ok');
    expect(failed.code).toBe(1);
    expect(failed.stdout.trim()).toBe('Test alert #2: not delivered (HTTP 500).');
    const log = JSON.parse((await cli('alerts', 'log', '--project', '1', '--json')).stdout);
    expect(
      log.map(
        (d: { id: number; event: string; state: string; attempts: number; lastStatus: number }) => [
          d.id,
          d.event,
          d.state,
          d.attempts,
          d.lastStatus,
        ],
      ),
    ).toEqual([
      [2, 'test', 'failed', 1, 500],
      [1, 'test', 'delivered', 1, 200],
    ]);
  });

  it('a Slack-compatible webhook has no secret; removing a webhook removes its rules', async () => {
    const added = JSON.parse(
      (
        await cli(
          'webhooks',
          'add',
          '--project',
          '2',
          '--url',
          receiver.url('/slack'),
          '--format',
          'slack',
          '--json',
        )
      ).stdout,
    );
    expect(added).toMatchObject({
      projectId: 2,
      format: 'slack',
      secret: null,
      name: receiver.url('/').slice(7, -1),
    });
    expect(
      (
        await cli(
          'alerts',
          'add',
          '--project',
          '2',
          '--webhook',
          String(added.id),
          '--on',
          'regression',
        )
      ).code,
    ).toBe(0);
    const removed = await cli('webhooks', 'remove', String(added.id));
    expect(removed.stdout.trim()).toBe(`Webhook #${added.id} removed, with its rules.`);
    expect(JSON.parse((await cli('alerts', 'list', '--project', '2', '--json')).stdout)).toEqual(
      [],
    );
    expect(JSON.parse((await cli('webhooks', 'list', '--project', '2', '--json')).stdout)).toEqual(
      [],
    );
  });

  it('refuses bad setups with one clean line', async () => {
    expect(await refused('webhooks', 'add', '--project', '1')).toBe('svc-server: Missing --url.');
    expect(await refused('webhooks', 'add', '--project', '1', '--url', 'ftp://x.test/')).toBe(
      'svc-server: The webhook URL must be an absolute http:// or https:// URL.',
    );
    expect(await refused('webhooks', 'add', '--project', '99', '--url', receiver.url())).toBe(
      'svc-server: There is no project #99.',
    );
    expect(
      await refused(
        'webhooks',
        'add',
        '--project',
        '1',
        '--url',
        receiver.url(),
        '--webhook-deny',
        'loopback',
      ),
    ).toBe(
      'svc-server: 127.0.0.1 is not an address webhooks may reach (deny loopback; allow none).',
    );
    expect(
      await refused('webhooks', 'add', '--project', '1', '--url', 'http://169.254.169.254/latest'),
    ).toMatch(
      /^svc-server: 169\.254\.169\.254 is not an address webhooks may reach \(deny link-local,metadata/,
    );
    expect(
      await refused(
        'webhooks',
        'add',
        '--project',
        '1',
        '--url',
        receiver.url(),
        '--webhook-deny',
        'intranet',
      ),
    ).toMatch(/^svc-server: "intranet" is not an address, a CIDR range or one of all, loopback/);
    expect(
      await refused('alerts', 'add', '--project', '1', '--webhook', '1', '--on', 'often'),
    ).toBe('svc-server: A rule fires on new, regression, frequency.');
    expect(await refused('alerts', 'add', '--project', '2', '--webhook', '1', '--on', 'new')).toBe(
      'svc-server: There is no webhook #1 in project #2.',
    );
    expect(await refused('alerts', 'test', '77')).toBe('svc-server: There is no alert rule #77.');
    expect(await refused('alerts', 'remove', '77')).toBe('svc-server: There is no alert rule #77.');
    expect(await refused('alerts', 'sometimes')).toBe(
      'svc-server: Unknown command "alerts sometimes".',
    );
  });
});
