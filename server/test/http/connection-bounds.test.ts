import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Service, spawnService } from '../helpers.ts';

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
      while (!text.includes('{"ok":true}') && Date.now() < deadline) await sleep(10);
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
