// Credentials, debug and logLocally (contract 8.5): what is sent, and what is logged without a
// secret, observed on the wire of a real HTTP server.
import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { API_KEY, clientFor, KEY } from '../helpers/client.ts';
import { SIGNING, useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

/** The address of a port nothing listens on. */
async function closedUrl(): Promise<string> {
  const listener = createServer();
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  const { port } = listener.address() as AddressInfo;
  await new Promise((r) => listener.close(r));
  return `http://127.0.0.1:${port}`;
}

describe('credentials', () => {
  it('bearer: Authorization header, standard headers', async () => {
    const { client } = clientFor(server().url, KEY);
    client.major('Bearer');
    await client.flush();
    const h = server().requests[0].headers;
    expect(h.authorization).toBe(`Bearer ${API_KEY}`);
    expect(h['content-type']).toBe('application/json');
    expect(h.accept).toBe('application/json');
    expect(h['x-svc-signature']).toBeUndefined();
  });

  it.each([[{}], [{ keyId: 'svck_1' }], [{ signingSecret: 'svc_sec_1' }], [{ apiKey: '  ' }]])(
    'without usable credentials (%j) the client warns even with debug off and never sends',
    async (opts) => {
      const { client, log } = clientFor(server().url, opts);
      client.critical('Unauthenticated');
      const r = await client.flush();
      expect(server().requests).toHaveLength(0);
      expect(r.sent + r.failed).toBe(0);
      expect(log.lines.some((l) => l.level === 'warn' && l.text.includes('client disabled'))).toBe(
        true,
      );
    },
  );
});

describe('debug and logLocally', () => {
  it('debug logs redact keys, secrets and signatures, Error objects included', async () => {
    server().respond(() => ({
      status: 401,
      body: { message: 'Invalid or missing project API key.' },
    }));
    const { client, log } = clientFor(server().url, {
      ...SIGNING,
      debug: true,
      beforeSend: () => {
        throw new Error(`leak ${SIGNING.signingSecret} Authorization: Bearer svc_pub_abcdef123456`);
      },
    });
    client.major('x');
    await client.flush();
    const signed = clientFor(server().url, { ...SIGNING, debug: true });
    signed.client.major('y');
    await signed.client.flush();
    const all = JSON.stringify([...log.lines, ...signed.log.lines]);
    expect(all).toContain('svck_test***');
    expect(all).toContain('[REDACTED]');
    expect(all).toContain('SvcAuthError');
    expect(all).not.toContain(SIGNING.signingSecret);
    expect(all).not.toContain('0123456789abcdef');
    expect(all).not.toContain('svc_pub_abcdef');
    const sig = server().requests[0].headers['x-svc-signature'] as string;
    expect(all).not.toContain(sig);
  });

  it('credentials in the service address never reach a warning or a debug line', async () => {
    // A closed port (the delivery warning names the address) and a bad address (its warning shows
    // the value given): the user information is redacted in both, and in every debug line.
    const closed = await closedUrl();
    const withPassword = closed.replace('http://', 'http://deploy:hunter2%40x@');
    const unreachable = clientFor(withPassword, { ...KEY, debug: true, maxRetries: 0 });
    unreachable.client.major('unreachable');
    await unreachable.client.flush();
    const bad = clientFor('ftp://ops:s3cr3t@svc.example.com', { ...KEY, debug: true });
    bad.client.major('bad address');
    await bad.client.flush();
    const lines = [...unreachable.log.lines, ...bad.log.lines].map((l) => l.text);
    expect(lines.some((l) => l.includes('cannot deliver to http://[REDACTED]@127.0.0.1:'))).toBe(
      true,
    );
    expect(lines.some((l) => l.includes('serviceUrl ftp://[REDACTED]@svc.example.com'))).toBe(true);
    for (const secret of ['hunter2', 'deploy', 's3cr3t', 'ops:']) {
      expect(lines.filter((l) => l.includes(secret))).toEqual([]);
    }
  });

  it('logLocally runs the pipeline, logs the payload with debug off, sends nothing', async () => {
    const { client, log } = clientFor(server().url, {
      ...KEY,
      logLocally: true,
      environment: 'dev',
      beforeSend: (p) => ({ ...p, title: 'scrubbed' }),
    });
    client.major('dry run', 'details');
    const r = await client.flush();
    expect(server().requests).toHaveLength(0);
    expect(r.sent).toBe(1);
    const info = log.lines.filter((l) => l.level === 'info');
    expect(info).toHaveLength(1);
    expect(info[0].text).toContain('"title":"scrubbed"');
    expect(info[0].text).toContain('env:dev');
  });
});
