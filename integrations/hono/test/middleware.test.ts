// The middleware and `onError` in a real Hono app, against the reference service, with a stand-in
// Worker context: each report is delivered by the time what was handed to `waitUntil` settles (no
// waiting, no polling), once per error, with the failure table's title and tags.
import { startTestService, type TestService } from '@svc/server/testing';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onError, svc } from '../src/index.ts';
import { bindings, cardsTitled, standInContext } from './helpers.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.close();
});

/** The app of these tests; `processHandlers: false` leaves the test runner's process alone. */
function app(): Hono {
  const hono = new Hono();
  hono.use(svc({ processHandlers: false }));
  hono.get('/orders/:id', (c) => {
    throw new Error(`Order ${c.req.param('id')} could not be loaded`);
  });
  hono.get('/gone/:id', () => {
    throw new HTTPException(404, { message: 'Order not found' });
  });
  hono.get('/busy', () => {
    throw new HTTPException(503, { message: 'Warehouse busy' });
  });
  hono.get('/receipts/:id', (c) => {
    c.executionCtx.waitUntil(
      Promise.reject(new Error(`Receipt ${c.req.param('id')} could not be sent`)),
    );
    return c.text('queued');
  });
  hono.get('/thrown', () => {
    throw 'a string, not an Error';
  });
  return hono;
}

/** One request as a Worker gets it; resolves once everything handed to `waitUntil` settled. */
async function request(hono: Hono, path: string) {
  const context = standInContext();
  const response = await Promise.resolve(
    hono.request(path, {}, bindings(service), context as never),
  ).catch((error: unknown) => error);
  const tasks = await context.settled();
  return { response, tasks };
}

describe('svc() middleware', () => {
  it('a route error answered with 500: one card per fault, delivered within waitUntil', async () => {
    const hono = app();
    const first = await request(hono, '/orders/1001');
    await request(hono, '/orders/1002');
    expect((first.response as Response).status).toBe(500);
    const [card] = await cardsTitled(
      service,
      'Error: Order <n> could not be loaded (GET /orders/:id)',
    );
    expect(card).toMatchObject({ severity: 'major', priority: 'medium', occurrence_count: 2 });
    expect([...card!.tags].sort()).toEqual(
      ['env:test', 'hono', 'method:GET', 'release:hono@1', 'server', 'server-error'].sort(),
    );
    expect(card!.file_name).toBe('integrations/hono/test/middleware.test.ts');
  });

  it('an HTTPException answered with 404 makes no card; one answered with 503 does', async () => {
    const hono = app();
    expect(((await request(hono, '/gone/7')).response as Response).status).toBe(404);
    expect(((await request(hono, '/busy')).response as Response).status).toBe(503);
    const titles = (await service.cards()).map((card) => card.title);
    // Hono's HTTPException keeps the name `Error`.
    expect(titles).toContain('Error: Warehouse busy (GET /busy)');
    expect(titles.filter((t) => t.includes('Order not found'))).toEqual([]);
  });

  it('a rejected waitUntil task: one background-error card, and the task still rejects', async () => {
    const { tasks } = await request(app(), '/receipts/42');
    expect(tasks.some((t) => t.status === 'rejected')).toBe(true);
    const [card] = await cardsTitled(
      service,
      'Error: Receipt <n> could not be sent (waitUntil of GET /receipts/:id)',
    );
    expect(card).toMatchObject({ severity: 'major', priority: 'medium', occurrence_count: 1 });
    expect(card!.tags).toEqual(
      expect.arrayContaining(['hono', 'server', 'background-error', 'method:GET']),
    );
  });

  it('a thrown non-Error goes on to the runtime (rethrown) and is reported once', async () => {
    const { response } = await request(app(), '/thrown');
    expect(response).toBe('a string, not an Error');
    expect(await cardsTitled(service, 'Error: a string, not an Error (GET /thrown)')).toHaveLength(
      1,
    );
  });
});

describe('onError()', () => {
  it("answers with your handler's response; with the middleware too, one card per error", async () => {
    const hono = app();
    hono.onError(onError((error, c) => c.text(`Sorry: ${error.message}`, 500)));
    hono.get('/pay/:id', () => {
      throw new TypeError('Card 4242 declined');
    });
    const { response } = await request(hono, '/pay/9');
    expect(await (response as Response).text()).toBe('Sorry: Card 4242 declined');
    const [card] = await cardsTitled(service, 'TypeError: Card <n> declined (GET /pay/:id)');
    expect(card!.occurrence_count).toBe(1);
  });

  it('an error your handler answers with 200 is handled: no card', async () => {
    const hono = new Hono();
    hono.onError(onError((_error, c) => c.text('fallback', 200), { processHandlers: false }));
    hono.get('/soft', () => {
      throw new Error('Recommendations unavailable');
    });
    const { response } = await request(hono, '/soft');
    expect((response as Response).status).toBe(200);
    expect(await cardsTitled(service, 'Error: Recommendations unavailable (GET /soft)')).toEqual(
      [],
    );
  });
});
