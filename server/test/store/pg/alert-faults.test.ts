import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPostgres, startPostgres } from '../../../../testkit/src/postgres.ts';
import { type Receiver, startReceiver, waitFor } from '../../alerts/receiver.ts';
import { report, type Service, spawnService } from '../../helpers.ts';

// PostgreSQL only: alerts while their database goes away. A delivery waiting for its retry when
// PostgreSQL is stopped (`-m immediate`, crash recovery at the next start) is neither lost nor
// sent twice: the deliverer's turns fail quietly (the process stays up, no stack in the log) and,
// once PostgreSQL is back, the alert arrives, once.
let postgres: RunningPostgres;
let svc: Service;
let receiver: Receiver;
beforeAll(async () => {
  postgres = await startPostgres();
  receiver = await startReceiver('500');
  svc = await spawnService({
    databaseUrl: await postgres.createDatabase(),
    alerts: { tickMs: 100, retryBaseMs: 4000, retryCapMs: 4000, timeoutMs: 1500, maxAttempts: 20 },
  });
}, 120_000);
afterAll(async () => {
  await svc?.close();
  await receiver?.stop();
  await postgres?.stop();
});

describe('alerts while PostgreSQL is stopped', () => {
  it('keep the pending delivery and send it once PostgreSQL is back', async () => {
    const hook = await svc.cli(
      'webhooks',
      'add',
      '--project',
      String(svc.projectId),
      '--url',
      receiver.url('/pg'),
      '--json',
    );
    expect(hook.code, hook.output).toBe(0);
    const webhookId = String((JSON.parse(hook.stdout) as { id: number }).id);
    const rule = await svc.cli(
      'alerts',
      'add',
      '--project',
      String(svc.projectId),
      '--webhook',
      webhookId,
      '--on',
      'new',
    );
    expect(rule.code, rule.output).toBe(0);
    const res = await svc.post(report({ title: 'Outlives its database' }), svc.bearer());
    expect(res.status).toBe(201);
    await waitFor('the first attempt (500)', () => receiver.received.length === 1 || undefined);
    await sleep(300); // its outcome recorded; the next attempt is 2 to 4 s away

    await postgres.halt('immediate');
    receiver.setMode('ok');
    await sleep(5000); // several turns fail meanwhile
    expect(svc.proc.child.exitCode).toBe(null);
    expect(receiver.received).toHaveLength(1);
    await postgres.resume();

    await waitFor(
      'the alert after the outage',
      () => receiver.received.length === 2 || undefined,
      60_000,
    );
    await sleep(1500);
    expect(receiver.received.map((r) => r.status)).toEqual([500, 200]);
    expect(receiver.received[1]!.headers['x-svc-delivery']).toBe(
      receiver.received[0]!.headers['x-svc-delivery'],
    );
    const log = svc.proc.output();
    expect(log).toMatch(/database unavailable/);
    expect(log).not.toMatch(/\n\s+at /);
    const rows = JSON.parse(
      (await svc.cli('alerts', 'log', '--project', String(svc.projectId), '--json')).stdout,
    );
    expect(rows).toMatchObject([{ state: 'delivered', attempts: 2, lastStatus: 200 }]);
  });
});
