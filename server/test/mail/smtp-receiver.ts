import { freePort } from '../../../testkit/src/ports.ts';
import { createServer, type Server, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

// Local SMTP receivers for the notification tests, all on one port so the service under test
// keeps its settings while the receiver changes: a real SMTP server that accepts (and keeps what
// it got), one that refuses every mail with a temporary failure, and a TCP listener that accepts
// connections and never says a word.

export { freePort };

export interface Received {
  to: string[];
  subject: string;
  text: string;
}

/** Unfolds the header and decodes the quoted-printable body of a plain-text message. */
function parse(raw: string): { subject: string; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(head)?.[1]?.replace(/\r?\n[ \t]/g, ' ');
  const body = rest.join('\n\n');
  const text = /quoted-printable/i.test(head)
    ? body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : body;
  return { subject: subject ?? '', text: Buffer.from(text, 'latin1').toString('utf8') };
}

export async function startReceiver(port: number, mode: 'accept' | 'refuse') {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('latin1')));
      stream.on('end', () => {
        if (mode === 'refuse') {
          const busy = Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 });
          return callback(busy);
        }
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), ...parse(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Accepts TCP connections on `port` and never answers (no SMTP greeting). */
export async function startSilent(port: number) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    connections: () => sockets.size,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
