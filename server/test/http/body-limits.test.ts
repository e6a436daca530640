import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, type Service, spawnService, TASKS } from '../helpers.ts';
import { LIMIT, rawSender } from './raw-send.ts';

// Black-box, against the built service: bodies past the size limit (413s that reach the client)
// and stalled bodies (408 after bodyTimeoutMs).
let svc: Service;
beforeAll(async () => {
  svc = await spawnService({ bodyTimeoutMs: 1000, secondProject: true });
});
afterAll(() => svc?.close());

const send = rawSender(() => svc.url);

describe('413 reaches a client that is still sending', () => {
  const big = Buffer.alloc(5_000_000, 'x');

  it('with keep-alive: the answer arrives and the next request is served', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 5; i++) {
        const r = await send(big, svc.bearer(), { agent });
        expect(r.status).toBe(413);
        expect(r.json.message).toMatch(/larger than 1048576 bytes/);
        const ok = await send(report({ title: `After 413 ${i}` }), svc.bearer(), { agent });
        expect(ok.status).toBe(201);
      }
    } finally {
      agent.destroy();
    }
  });

  it('with Connection: close', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await send(big, { ...svc.bearer(), connection: 'close' });
      expect(r.status).toBe(413);
      expect(typeof r.json.message).toBe('string');
    }
  });

  it('chunked, without Content-Length', async () => {
    const r = await new Promise<number>((resolve, reject) => {
      const req = request(`${svc.url}${TASKS}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...svc.bearer() },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write(Buffer.alloc(100_000, 'y'));
      req.end();
    });
    expect(r).toBe(413);
  });
});

describe('a stalled body', () => {
  it('is answered 408 with a JSON message and the connection closed (bodyTimeoutMs)', async () => {
    const started = Date.now();
    const { head, body, closed } = await new Promise<{
      head: string;
      body: string;
      closed: boolean;
    }>((resolve, reject) => {
      const socket = connect(Number(new URL(svc.url).port), '127.0.0.1');
      let text = '';
      socket.on('data', (c) => (text += c.toString()));
      socket.on('error', reject);
      socket.on('close', () => {
        const [h = '', b = ''] = text.split('\r\n\r\n');
        resolve({ head: h, body: b, closed: true });
      });
      socket.write(
        `POST ${TASKS} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Authorization: ${svc.bearer().authorization}\r\nContent-Length: 100\r\n\r\n{"severity":`,
      );
    });
    const elapsed = Date.now() - started;
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(head.toLowerCase()).toContain(`${LIMIT}: 500`);
    const payload = body.includes('{')
      ? body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1)
      : body;
    expect(JSON.parse(payload).message).toMatch(/did not arrive within 1 s/);
    expect(closed).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(900);
    const r = await svc.post(report({ title: 'After stall' }), svc.bearer());
    expect(r.status).toBe(201);
  });
});
