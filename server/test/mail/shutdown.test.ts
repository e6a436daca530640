import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { spawnProcess, type Spawned } from '../../../testkit/src/process.ts';
import { CLI, report, runCli, spawnService } from '../helpers.ts';
import { freePort, startReceiver, startSilent, waitFor } from './smtp-receiver.ts';

// Shutdown with an SMTP server that accepts and never greets (a real TCP listener), a mail in the
// middle of its exchange: `close()` abandons it at once, nothing touches the store afterwards,
// the process is gone well under the 10 s a container runtime waits after SIGTERM, and the mail,
// still in the outbox, goes at the next start. Real processes: the test fixture (startServer and
// close()) and `svc-server serve`, on one data dir (one database in the PostgreSQL run).
const dataDir = mkdtempSync(join(tmpdir(), 'svc-shutdown-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The bound of this test: far under 10 s, far over a clean close on a loaded machine. */
const GONE_WITHIN_MS = 4000;

async function sigterm(proc: Spawned): Promise<{ ms: number; code: number | string }> {
  const signalled = Date.now();
  proc.kill('SIGTERM');
  const code = await proc.exited;
  return { ms: Date.now() - signalled, code };
}

/** Where the services of this test keep their data (SQLite here, PostgreSQL in server-pg). */
let storeArgs: string[] = ['--data-dir', dataDir];

const outbox = async () =>
  JSON.parse((await runCli(['mail', 'list', '--json', ...storeArgs])).stdout) as {
    subject: string;
    sentAt: string | null;
    attempts: number;
    lastError: string | null;
  }[];

/** Nothing the processes printed says the store was used after it closed. */
const storeAfterClose = (output: string) =>
  output.split('\n').filter((l) => /not open|closed database|mail sender/i.test(l));

it('SIGTERM during an SMTP exchange with a silent server: gone at once, the mail kept for later', async () => {
  const port = await freePort();
  const silent = await startSilent(port);
  try {
    // A daily quota of 4: the third report sends the 75 % warning by e-mail.
    const svc = await spawnService({
      dataDir,
      plans: { team: { dailyEvents: 4 } },
      members: [{ email: 'owner@acme.test', role: 'owner' }],
      smtp: { host: '127.0.0.1', port, ignoreTLS: true, from: 'svc@acme.test' },
    });
    if (svc.databaseUrl) storeArgs = ['--database-url', svc.databaseUrl];
    for (let i = 0; i < 3; i++)
      expect((await svc.post(report({ title: `Card ${i}` }), svc.bearer())).status).toBe(201);
    await waitFor('the SMTP exchange', async () => silent.connections() > 0 || undefined);
    const stopped = await sigterm(svc.proc);
    console.log(`fixture: gone ${stopped.ms} ms after SIGTERM`);
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(GONE_WITHIN_MS);
    expect(storeAfterClose(svc.proc.output())).toEqual([]);
    const [mail] = await outbox();
    expect(mail).toMatchObject({
      subject: expect.stringContaining('75%'),
      sentAt: null,
      attempts: 1,
      lastError: 'not sent: the service stopped during the SMTP exchange',
    });

    // `svc-server serve` sends what is in the outbox at start: the silent server again, SIGTERM.
    const serve = spawnProcess(process.execPath, [
      CLI,
      'serve',
      '--port',
      '0',
      ...storeArgs,
      '--smtp-host',
      '127.0.0.1',
      '--smtp-port',
      String(port),
    ]);
    await serve.waitFor(/listening on/);
    const before = silent.connections();
    await waitFor('the exchange at start', async () => silent.connections() > before || undefined);
    const served = await sigterm(serve);
    console.log(`svc-server serve: gone ${served.ms} ms after SIGTERM`);
    expect(served.code).toBe(0);
    expect(served.ms).toBeLessThan(GONE_WITHIN_MS);
    expect(storeAfterClose(serve.output())).toEqual([]);
    expect((await outbox())[0]).toMatchObject({ sentAt: null, attempts: 2 });
  } finally {
    await silent.close();
  }

  // A server that answers: the kept mail goes at the next start, once.
  const smtp = await startReceiver(port, 'accept');
  const serve = spawnProcess(process.execPath, [
    CLI,
    'serve',
    '--port',
    '0',
    ...storeArgs,
    '--smtp-host',
    '127.0.0.1',
    '--smtp-port',
    String(port),
  ]);
  try {
    await waitFor('the kept mail', async () => (smtp.received.length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.received.map((m) => m.subject)).toEqual([expect.stringContaining('75%')]);
    expect((await outbox())[0]!.sentAt).not.toBeNull();
  } finally {
    await sigterm(serve);
    await smtp.close();
  }
});
