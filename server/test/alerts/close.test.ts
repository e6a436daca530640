import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.ts';
import { testDatabaseUrl } from '../store-kind.ts';
import { type Receiver, startReceiver, waitFor } from './receiver.ts';

// close() while a receiver holds an attempt open (it would for a minute): the attempt is aborted,
// not waited out, and released, so the next start of the service delivers the alert on its first
// counted attempt. In-process, on a temp data dir or (server-pg) a fresh PostgreSQL database.
const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function start(dataDir: string, databaseUrl: string | undefined) {
  const server = await startServer({
    port: 0,
    dataDir,
    databaseUrl,
    alerts: { tickMs: 50, timeoutMs: 60_000, retryBaseMs: 100, retryCapMs: 100 },
  });
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= server.close());
  cleanup.push(close);
  return { server, close };
}

describe('closing while an alert is in flight', () => {
  it('aborts and releases the attempt; the next start delivers it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-alerts-close-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const databaseUrl = await testDatabaseUrl();
    const receiver: Receiver = await startReceiver('hang');
    cleanup.push(() => receiver.stop());

    const { server: first, close } = await start(dataDir, databaseUrl);
    const account = await first.admin.createAccount({ name: 'Acme', plan: 'team' });
    const projectId = (await first.admin.createProject({ accountId: account.id, name: 'Web' })).id;
    const key = (await first.admin.createPublishableKey({ projectId, name: 'web' })).token;
    const { webhook } = await first.alerts!.addWebhook({
      projectId,
      url: receiver.url('/in-flight'),
    });
    await first.alerts!.addRule({ projectId, webhookId: webhook.id, event: 'new' });
    const res = await fetch(`${first.url}/api/v1/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ severity: 'major', title: 'Closing under way' }),
    });
    expect(res.status).toBe(201);
    await waitFor('the attempt held open', () => receiver.hanging() > 0 || undefined);

    await close();
    // The attempt was aborted (its connection is gone), not waited out, and not counted.
    await waitFor('the aborted connection', () => receiver.hanging() === 0 || undefined);

    receiver.setMode('ok');
    const { server: second } = await start(dataDir, databaseUrl);
    await waitFor('the released alert', () => receiver.received.length > 0 || undefined);
    await second.flushAlerts();
    const [row] = await second.alerts!.deliveries(projectId);
    expect(row).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 200, event: 'new' });
    expect(receiver.received).toHaveLength(1);
    expect((receiver.received[0]!.json.card as { title: string }).title).toBe('Closing under way');
  });
});
