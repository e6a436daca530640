import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../../src/http/connections.ts';
import { type Service, spawnService, TASKS } from '../helpers.ts';

// Black-box, against the built service: idle keep-alive connections and maxConnections.
describe('connection bounds', () => {
  let bounded: Service;
  beforeAll(async () => {
    bounded = await spawnService({ keepAliveTimeoutMs: 500, maxConnections: 2 });
  });
  afterAll(() => bounded?.close());

  /** A raw connection; `answer` sends one request and resolves with its status line. */
  const open = () => {
    const socket = connect(Number(new URL(bounded.url).port), '127.0.0.1');
    let text = '';
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    socket.on('data', (c) => (text += c.toString()));
    socket.on('error', () => {});
    const answer = async () => {
      socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      const deadline = Date.now() + 2000;
      while (!text.includes('{"ok":true,') && Date.now() < deadline) await sleep(10);
      return text.split('\r\n')[0];
    };
    return { socket, closed, answer };
  };

  it('an idle keep-alive connection is closed after keepAliveTimeoutMs', async () => {
    const conn = open();
    expect(await conn.answer()).toBe('HTTP/1.1 200 OK');
    const answeredAt = Date.now();
    const closedAt = await conn.closed;
    expect(closedAt - answeredAt).toBeGreaterThanOrEqual(400);
    expect(closedAt - answeredAt).toBeLessThan(3000);
  });

  it('connections past maxConnections are closed on arrival', async () => {
    const first = open();
    const second = open();
    expect(await first.answer()).toBe('HTTP/1.1 200 OK');
    expect(await second.answer()).toBe('HTTP/1.1 200 OK');
    const third = open();
    expect(await third.answer()).not.toBe('HTTP/1.1 200 OK');
    await third.closed;
    first.socket.destroy();
    second.socket.destroy();
    await Promise.all([first.closed, second.closed]);
    const fourth = open();
    expect(await fourth.answer()).toBe('HTTP/1.1 200 OK');
    fourth.socket.destroy();
  });
});

// One address opening more sockets than the global cap, none of them ever finishing its headers,
// must not lock out other clients: once half the cap (2,048) is open, an address holding
// maxConnectionsPerAddress (256) or more gets no more, so a client from another address
// (127.0.0.2, also loopback) is served at once.
describe('connections per client address', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await spawnService();
  });
  afterAll(() => svc?.close());

  /** A socket from `localAddress` that sends half a request and then nothing. */
  const stall = (localAddress: string) =>
    new Promise<{ closed: Promise<void> }>((resolve) => {
      const socket = connect({
        port: Number(new URL(svc.url).port),
        host: '127.0.0.1',
        localAddress,
      });
      const closed = new Promise<void>((r) => socket.once('close', () => r()));
      socket.on('error', () => {});
      socket.on('connect', () => {
        socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
        resolve({ closed });
      });
      socket.once('close', () => resolve({ closed }));
      held.push(socket);
    });
  const held: ReturnType<typeof connect>[] = [];
  afterAll(() => {
    for (const s of held) s.destroy();
  });

  /** GET /health and POST one report from 127.0.0.2, through node:http with that local address. */
  const fromOtherAddress = async () => {
    const agent = new Agent({ localAddress: '127.0.0.2', keepAlive: false });
    const ask = (
      method: string,
      path: string,
      body?: string,
      headers: Record<string, string> = {},
    ) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${svc.url}${path}`, { method, agent, headers, timeout: 5000 });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
        req.on('error', reject);
        req.end(body);
      });
    const health = await ask('GET', '/health');
    const report = await ask(
      'POST',
      TASKS,
      JSON.stringify({ title: 'From another address', severity: 'major', priority: 'low' }),
      {
        'content-type': 'application/json',
        ...svc.bearer(),
      },
    );
    return { health, report };
  };

  it('4,200 stalled sockets from 127.0.0.1 leave 127.0.0.2 and /health served', async () => {
    const sockets = [];
    for (let i = 0; i < 4200; i += 200) {
      sockets.push(...(await Promise.all(Array.from({ length: 200 }, () => stall('127.0.0.1')))));
    }
    const { health, report } = await fromOtherAddress();
    expect(health).toEqual({ status: 200, body: expect.stringContaining('"ok":true') });
    expect(report.status).toBe(201);
    let open = 0;
    await Promise.all(
      sockets.map(({ closed }) =>
        Promise.race([closed.then(() => false), sleep(50).then(() => true)]).then((o) => {
          if (o) open++;
        }),
      ),
    );
    expect(open).toBe(2048);
    // Another socket from the greedy address is still refused while it holds them.
    const extra = await stall('127.0.0.1');
    await extra.closed;
  });
});

it('connections are counted per IPv4 address and per IPv6 /64', () => {
  expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
  expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
  expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
  expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
  expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  expect(addressKey('::1')).toBe('0:0:0:0::/64');
});
