import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { report, spawnService } from '../helpers.ts';

// Quota warnings at 75 %, 90 % and 100 % delivered to a real local SMTP receiver.
interface Received {
  from: string;
  to: string[];
  data: string;
}
const received: Received[] = [];
let smtp: SMTPServer;
let port: number;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString()));
      stream.on('end', () => {
        received.push({
          from: String(session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

it('mails owner, admins and members at 75, 90 and 100 % naming the top cards', async () => {
  const svc = await spawnService({
    plans: { team: { dailyEvents: 20 } },
    members: [
      { email: 'owner@acme.test', role: 'owner' },
      { email: 'admin@acme.test', role: 'admin' },
      { email: 'dev@acme.test', role: 'member' },
    ],
    smtp: { host: '127.0.0.1', port, ignoreTLS: true, from: 'svc@acme.test' },
  });
  try {
    for (let i = 0; i < 22; i++) {
      const title = i % 2 === 0 ? 'Hot card' : `Cold card ${i}`;
      await svc.post(report({ title }), svc.bearer());
    }
    const deadline = Date.now() + 20_000;
    while (received.length < 3 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(received).toHaveLength(3);
    const subjects = received.map((m) => /Subject: (.*)/.exec(m.data)?.[1]);
    expect(subjects).toEqual([
      expect.stringContaining('75%'),
      expect.stringContaining('90%'),
      expect.stringContaining('100%'),
    ]);
    for (const m of received) {
      expect(m.to.sort()).toEqual(['admin@acme.test', 'dev@acme.test', 'owner@acme.test']);
      expect(m.from).toBe('svc@acme.test');
      expect(m.data).toContain('1. Hot card');
    }
    const outbox = await svc.cli('mail', 'list', '--json');
    const mails = JSON.parse(outbox.stdout) as { sentAt: string | null }[];
    expect(mails).toHaveLength(3);
    expect(mails.every((m) => m.sentAt !== null)).toBe(true);
  } finally {
    await svc.close();
  }
});
