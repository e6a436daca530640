// End to end against the reference service (@svc/server/testing): a real server on 127.0.0.1:0
// that checks auth, opens sealed boxes, deduplicates and stores cards.
import { startTestService, type TestService } from '@svc/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnProcess } from '../../../testkit/src/index.ts';
import { createClient } from '../../src/index.node.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc?.close());

const deps = () => ({ serviceUrl: svc.url });
const titles = async () => (await svc.cards()).map((c) => c.title);

it('bearer: new card then deduplicated', async () => {
  const client = createClient(
    { apiKey: svc.keys.apiKey, captureLocation: false, concurrency: 1 },
    deps(),
  );
  client.majorHigh('E2E bearer', 'first');
  client.majorHigh('E2E bearer', 'second');
  expect(await client.flush()).toMatchObject({ sent: 1, deduplicated: 1, failed: 0 });
  const card = (await svc.cards()).find((c) => c.title === 'E2E bearer');
  expect(card).toMatchObject({ severity: 'major', priority: 'high', occurrence_count: 2 });
});

it('signed, and signed + sealed, are accepted', async () => {
  const { keyId, signingSecret, encryptionPublicKey, encryptionKeyId } = svc.keys;
  const signed = createClient({ keyId, signingSecret, environment: 'e2e' }, deps());
  signed.critical('E2E signed', new Error('boom'));
  const sealed = createClient(
    { keyId, signingSecret, encryptionPublicKey, encryptionKeyId },
    deps(),
  );
  sealed.minorLow('E2E sealed', { secret: 'inside the box' });
  expect((await signed.flush()).sent).toBe(1);
  expect((await sealed.flush()).sent).toBe(1);
  const cards = await svc.cards();
  expect(cards.find((c) => c.title === 'E2E signed')?.tags).toContain('env:e2e');
  expect(cards.find((c) => c.title === 'E2E sealed')?.description).toBe(
    '{"secret":"inside the box"}',
  );
});

it('a paused project drops reports: counted, not retried, not failed', async () => {
  await svc.admin.setProjectState(svc.projectId, 'paused');
  try {
    const client = createClient({ apiKey: svc.keys.apiKey }, deps());
    client.major('E2E paused');
    expect(await client.flush()).toMatchObject({ sent: 0, failed: 0, dropped: { paused: 1 } });
  } finally {
    await svc.admin.setProjectState(svc.projectId, 'active');
  }
  expect(await titles()).not.toContain('E2E paused');
});

it('a wrong secret fails as SvcAuthError, not retried', async () => {
  let requests = 0;
  const client = createClient(
    { keyId: svc.keys.keyId, signingSecret: 'svc_sec_wrong', debug: true },
    {
      serviceUrl: svc.url,
      fetch: (i, init) => {
        requests++;
        return fetch(i, init);
      },
      logger: { debug: (...a: unknown[]) => lines.push(a.join(' ')), info() {}, warn() {} },
    },
  );
  const lines: string[] = [];
  client.major('E2E bad signature');
  expect((await client.flush()).failed).toBe(1);
  expect(requests).toBe(1);
  expect(lines.join('\n')).toContain('SvcAuthError');
});

it.each([
  ['ESM', 'report-and-exit.mjs', 'Exit report'],
  ['CJS', 'report-and-exit.cjs', 'CJS exit report'],
])(
  '%s child process that exits naturally delivers every queued report (beforeExit)',
  async (_k, file, prefix) => {
    const child = spawnProcess(
      process.execPath,
      [new URL(`../fixtures/${file}`, import.meta.url).pathname],
      {
        env: {
          ...process.env,
          SERVICE_URL: svc.url,
          SVC_API_KEY: svc.keys.apiKey,
          REPORTS: '25',
        },
      },
    );
    const started = Date.now();
    expect(await child.exited).toBe(0);
    // The 60 s cadence timer never held the process open.
    expect(Date.now() - started).toBeLessThan(30_000);
    const delivered = (await titles()).filter((t) => t.startsWith(`${prefix} `));
    expect(delivered).toHaveLength(25);
  },
);
