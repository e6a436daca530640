import { describe, expect, it } from 'vitest';
import { report, type Service, spawnService } from '../helpers.ts';
import { freePort, type Received, startReceiver, startSilent, waitFor } from './smtp-receiver.ts';

// Notifications of new cards and regressions, e-mailed through a real SMTP server on 127.0.0.1
// by a real service process: opt-in per project, one digest for a storm, ignored cards left out,
// and an SMTP server that is stopped, refusing or silent delays the e-mail but never loses it.
// Long enough for the test to ignore a card (a CLI process) before the storm's digest is made.
const DELAY = 2500;
const INTERVAL = 5000;

async function service(port: number, delayMs = DELAY, intervalMs = INTERVAL) {
  const svc = await spawnService({
    members: [{ email: 'owner@acme.test', role: 'owner' }],
    smtp: {
      host: '127.0.0.1',
      port,
      ignoreTLS: true,
      from: 'svc@acme.test',
      retryMs: 300,
      timeoutMs: 1000,
    },
    notifications: { delayMs, intervalMs },
  });
  const on = await svc.cli('notify', 'on', '--project', String(svc.projectId));
  expect(on.code, on.output).toBe(0);
  return svc;
}
const send = async (svc: Service, title: string, tags: string[] = []) => {
  const res = await svc.post(report({ title, tags }), svc.bearer());
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { data: { id: number } }).data.id;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const outbox = async (svc: Service) =>
  JSON.parse((await svc.cli('mail', 'list', '--json')).stdout) as {
    subject: string;
    sentAt: string | null;
    attempts: number;
    lastError: string | null;
  }[];

describe('notifications', () => {
  it('one e-mail for a storm of new cards, then one for a regression; ignored cards send nothing', async () => {
    const port = await freePort();
    const smtp = await startReceiver(port, 'accept');
    const svc = await service(port);
    try {
      const silent = await svc.cli('notify', 'list', '--json');
      expect(JSON.parse(silent.stdout)).toEqual([
        { projectId: svc.projectId, recipients: null, lastSentAt: null },
      ]);
      const storm = Array.from({ length: 60 }, (_, i) => `Storm error ${i}`);
      const ids = await Promise.all(storm.map((t) => send(svc, t)));
      await Promise.all(storm.map((t) => send(svc, t))); // repeats are no news
      const ignored = await send(svc, 'Ignored at once');
      const set = await svc.cli(
        'cards',
        'set-status',
        '--card',
        String(ignored),
        '--status',
        'ignored',
      );
      expect(set.code, set.output).toBe(0);

      const [first] = await waitFor('the storm digest', async () =>
        smtp.received.length > 0 ? smtp.received : undefined,
      );
      expect(first!.to).toEqual(['owner@acme.test']);
      expect(first!.subject).toBe('[Svc] Fixture project: 60 new cards');
      for (const [i, title] of storm.entries()) {
        expect(first!.text).toContain(`- #${ids[i]} [major] ${title} (2 reports)`);
      }
      expect(first!.text).not.toContain('Ignored at once');

      // Resolved, then back with a release: one more e-mail, not before the interval.
      const done = await svc.cli(
        'cards',
        'set-status',
        '--card',
        String(ids[7]),
        '--status',
        'done',
      );
      expect(done.code, done.output).toBe(0);
      await send(svc, storm[7]!, ['release:3.1.0']);
      await send(svc, 'Ignored at once'); // counts, no notice
      await sleep(DELAY + 500);
      expect(smtp.received).toHaveLength(1); // the interval since the storm's e-mail holds it
      const second = await waitFor('the regression digest', async () => smtp.received[1]);
      expect(second.subject).toBe('[Svc] Fixture project: 1 regression');
      expect(second.text).toContain(
        `- #${ids[7]} [major] ${storm[7]} (release 3.1.0, regression 1, 3 reports)`,
      );

      // Off: nothing more, however long we wait.
      expect((await svc.cli('notify', 'off', '--project', String(svc.projectId))).code).toBe(0);
      await send(svc, 'After notifications were turned off');
      await sleep(INTERVAL + DELAY + 1000);
      expect(smtp.received).toHaveLength(2);
      expect((await outbox(svc)).every((m) => m.sentAt !== null)).toBe(true);
    } finally {
      await svc.close();
      await smtp.close();
    }
  });

  it('an SMTP server stopped, refusing or silent delays the e-mail; it is sent once, later', async () => {
    const port = await freePort(); // nothing listens yet: connections are refused
    const svc = await service(port, 200, 1000);
    let smtp: Awaited<ReturnType<typeof startReceiver>> | undefined;
    try {
      await send(svc, 'Sent while SMTP is down');
      const failedAttempts = async (at: number) =>
        waitFor(`attempt ${at}`, async () => {
          const [mail] = await outbox(svc);
          return mail && mail.attempts >= at ? mail : undefined;
        });
      const stopped = await failedAttempts(1);
      expect(stopped).toMatchObject({ subject: '[Svc] Fixture project: 1 new card', sentAt: null });
      expect(stopped.lastError).toMatch(/ECONNREFUSED|connect/i);
      const up = async () => {
        expect((await fetch(`${svc.url}/health`)).status).toBe(200);
        await send(svc, 'Sent while SMTP is down'); // ingestion goes on
      };
      await up();

      const refusing = await startReceiver(port, 'refuse');
      const before = stopped.attempts;
      const refused = await waitFor('a refused attempt', async () => {
        const [mail] = await outbox(svc);
        return mail && mail.attempts > before + 1 && /busy/i.test(mail.lastError ?? '')
          ? mail
          : undefined;
      });
      expect(refused.sentAt).toBeNull();
      await up();
      await refusing.close();

      const silent = await startSilent(port);
      await waitFor(
        'a connection to the silent server',
        async () => silent.connections() > 0 || undefined,
      );
      const timedOut = await waitFor('a timed-out attempt', async () => {
        const [mail] = await outbox(svc);
        return mail &&
          mail.attempts > refused.attempts &&
          /timeout|greeting/i.test(mail.lastError ?? '')
          ? mail
          : undefined;
      });
      expect(timedOut.sentAt).toBeNull();
      await up();
      await silent.close();

      smtp = await startReceiver(port, 'accept');
      const received: Received[] = await waitFor('the delayed e-mail', async () =>
        smtp!.received.length > 0 ? smtp!.received : undefined,
      );
      await sleep(1000); // no second copy follows
      expect(received).toHaveLength(1);
      expect(received[0]!.text).toContain('[major] Sent while SMTP is down');
      const [mail] = await outbox(svc);
      expect(mail!.sentAt).not.toBeNull();
      expect(mail!.attempts).toBeGreaterThan(3);
    } finally {
      await svc.close();
      await smtp?.close();
    }
  });
});
