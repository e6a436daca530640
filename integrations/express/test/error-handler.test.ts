import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { errorHandler, errorStatus } from '../src/error-handler.ts';
import { recordingClient } from './helpers.ts';

let close: (() => void) | undefined;
afterEach(() => close?.());

async function serve(client: ReturnType<typeof recordingClient>) {
  const app = express();
  const router = express.Router();
  router.get('/items/:id', () => {
    throw new Error('boom');
  });
  app.use('/api', router);
  app.get('/users/:id', () => {
    throw new Error('user failed');
  });
  app.get('/teapot', (_req, _res, next) => next(Object.assign(new Error('nope'), { status: 418 })));
  app.get('/unavailable', (_req, _res, next) =>
    next(Object.assign(new Error('down'), { statusCode: 503 })),
  );
  app.use(errorHandler({}, client));
  const seen: string[] = [];
  app.use(
    (err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      seen.push(err.message);
      res.status(299).send('host handler');
    },
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  close = () => server.close();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen };
}

describe('errorHandler', () => {
  it('reports 5xx titled by class, message and route pattern, tags, and passes the error on', async () => {
    const client = recordingClient();
    const { base, seen } = await serve(client);
    for (const id of [1, 2, 3]) {
      const res = await fetch(`${base}/users/${id}`);
      expect(res.status).toBe(299);
      expect(await res.text()).toBe('host handler');
    }
    await fetch(`${base}/api/items/9`);
    await fetch(`${base}/unavailable`);
    expect(client.calls.map((c) => c.title)).toEqual([
      'Error: user failed (GET /users/:id)',
      'Error: user failed (GET /users/:id)',
      'Error: user failed (GET /users/:id)',
      'Error: boom (GET /api/items/:id)',
      'Error: down (GET /unavailable)',
    ]);
    expect(client.calls[0]).toMatchObject({
      method: 'majorMedium',
      tags: ['express', 'server', 'server-error', 'method:GET'],
    });
    expect((client.calls[0]!.description as Error).message).toBe('user failed');
    expect(seen).toEqual(['user failed', 'user failed', 'user failed', 'boom', 'down']);
  });

  it('does not report client errors (4xx) but still calls next', async () => {
    const client = recordingClient();
    const { base, seen } = await serve(client);
    await fetch(`${base}/teapot`);
    expect(client.calls).toEqual([]);
    expect(seen).toEqual(['nope']);
  });

  it('never throws into the host when the client throws', async () => {
    const app = express();
    app.get('/x', () => {
      throw new Error('x');
    });
    const broken = new Proxy(
      {},
      {
        get() {
          throw new Error('client exploded');
        },
      },
    ) as never;
    app.use(errorHandler({}, broken));
    app.use((_e: Error, _q: express.Request, res: express.Response, _n: express.NextFunction) => {
      res.status(500).send('still handled');
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    close = () => server.close();
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
    expect(await res.text()).toBe('still handled');
  });

  it('reads the status like Express does', () => {
    expect(errorStatus(new Error('x'))).toBe(500);
    expect(errorStatus({ status: 404 })).toBe(404);
    expect(errorStatus({ statusCode: 502 })).toBe(502);
    expect(errorStatus({ status: 200 })).toBe(500);
    expect(errorStatus('string')).toBe(500);
  });
});
