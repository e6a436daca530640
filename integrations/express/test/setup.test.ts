import type { AddressInfo } from 'node:net';
import { getShared } from '@svc/runtime';
import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import { setupErrorHandler } from '../src/setup.ts';

// setupErrorHandler with the real runtime (no credentials: the client disables itself with a
// warning and sends nothing). Process handlers are covered in process-handlers and e2e/process.
describe('setupErrorHandler', () => {
  it('mounts the error middleware and returns the shared client; leaves process alone when asked', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const before = process.listenerCount('SIGTERM');
    const app = express();
    app.get('/x/:id', () => {
      throw new Error('x');
    });
    const client = setupErrorHandler(app, { processHandlers: false });
    let seen: unknown;
    app.use((err: Error, _q: express.Request, res: express.Response, _n: express.NextFunction) => {
      seen = err;
      res.status(500).end();
    });
    expect(getShared()).toBe(client);
    expect(setupErrorHandler(express(), { processHandlers: false })).toBe(client);
    expect(process.listenerCount('SIGTERM')).toBe(before);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x/1`);
    server.close();
    expect(res.status).toBe(500);
    expect((seen as Error).message).toBe('x'); // next(err) reached the host handler
    warn.mockRestore();
  });
});
