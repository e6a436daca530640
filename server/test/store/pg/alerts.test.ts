import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, sleep, verifyAlert, waitFor } from '../../alerts/receiver.ts';
import { report, type Service, spawnService } from '../../helpers.ts';
import { requirePostgres } from '../../store-kind.ts';

// PostgreSQL only: two service processes on one database both plan and deliver alerts; each alert
// reaches the receiver once, not twice, while reports come in through both, while the receiver
// fails half the attempts (retries taken over by either instance), and for a frequency rule both
// instances count at once.
const FAST = { tickMs: 50, retryBaseMs: 200, retryCapMs: 600, timeoutMs: 2000, maxAttempts: 50 };

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function twoInstances() {
  const databaseUrl = await requirePostgres();
  const a = await spawnService({ databaseUrl, alerts: FAST });
  open.push(a);
  const b = await spawnService({ databaseUrl, alerts: FAST, noSeed: true });
  open.push(b);
  return { a, b };
}
const post = async (svc: Service, via: Service, body: Parameters<typeof report>[0]) => {
  const res = await fetch(`${via.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { ...svc.bearer(), 'content-type': 'application/json' },
    body: report(body),
  });
  expect(res.status).toBeLessThan(300);
};
async function setUp(svc: Service, url: string, ...rule: string[]) {
  const hook = await svc.cli(
    'webhooks',
    'add',
    '--project',
    String(svc.projectId),
    '--url',
    url,
    '--json',
  );
  expect(hook.code, hook.output).toBe(0);
  const { id, secret } = JSON.parse(hook.stdout) as { id: number; secret: string };
  const added = await svc.cli(
    'alerts',
    'add',
    '--project',
    String(svc.projectId),
    '--webhook',
    String(id),
    ...rule,
  );
  expect(added.code, added.output).toBe(0);
  return secret;
}

describe('alerts on two instances of one PostgreSQL', () => {
  it('each new card alerts once, through failures and retries, whichever instance ingests it', async () => {
    const { a, b } = await twoInstances();
    const r = await startReceiver('ok');
    open.push({ close: () => r.stop() });
    const secret = await setUp(a, r.url('/new'), '--on', 'new');
    // Every other attempt answers 500, so retries are claimed by both instances too.
    let calls = 0;
    const flip = setInterval(() => r.setMode(calls++ % 2 === 0 ? '500' : 'ok'), 70);
    try {
      const titles = Array.from({ length: 40 }, (_, i) => `Distinct error ${i}`);
      await Promise.all(titles.map((title, i) => post(a, i % 2 ? a : b, { title })));
      await Promise.all(titles.map((title, i) => post(a, i % 2 ? b : a, { title }))); // repeats
      await waitFor(
        'forty delivered alerts',
        () => r.received.filter((x) => x.status === 200).length >= 40 || undefined,
        60_000,
      );
    } finally {
      clearInterval(flip);
    }
    r.setMode('ok');
    await waitFor(
      'every delivery finished',
      async () => {
        const log = JSON.parse(
          (await a.cli('alerts', 'log', '--project', String(a.projectId), '--json')).stdout,
        ) as { state: string }[];
        return log.length === 40 && log.every((d) => d.state === 'delivered') ? log : undefined;
      },
      60_000,
    );
    await sleep(1000);
    // Accepted answers: exactly one per card (a 500 answer is not a delivery).
    const delivered = r.received.filter((x) => x.status === 200);
    const cards = delivered.map((x) => (x.json.card as { title: string }).title).sort();
    expect(cards).toEqual(Array.from({ length: 40 }, (_, i) => `Distinct error ${i}`).sort());
    expect(delivered.every((x) => verifyAlert(x.raw, x.headers, secret))).toBe(true);
  });

  it('a frequency rule counted by both instances at once fires once', async () => {
    const { a, b } = await twoInstances();
    const r = await startReceiver('ok');
    open.push({ close: () => r.stop() });
    await setUp(a, r.url('/freq'), '--on', 'frequency', '--more-than', '10', '--minutes', '10');
    for (let round = 0; round < 5; round++) {
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => post(a, i % 2 ? a : b, { title: 'Hot path' })),
      );
      await sleep(200);
    }
    await waitFor('the frequency alert', () => r.received.length > 0 || undefined);
    await sleep(2000); // many more turns on both instances
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.json).toMatchObject({ event: 'frequency', rule: { threshold: 10 } });
    expect(r.received[0]!.json.count as number).toBeGreaterThan(10);
  });
});
