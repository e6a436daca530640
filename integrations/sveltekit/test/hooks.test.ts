// SvelteKit's server hooks against the reference service, called as SvelteKit calls them (the
// real framework runs the apps `sv create` makes in pack's cross-framework matrix).
import { getShared } from '@svc/runtime';
import { startTestService, type TestService } from '@svc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleErrorWithSvc, initSvc } from '../src/index.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
  // `processHandlers: false`: the test runner's process stays as it is.
  initSvc(
    { processHandlers: false },
    {
      SERVICE_URL: service.url,
      SERVICE_KEY_ID: service.keys.keyId,
      SERVICE_SIGNING_SECRET: service.keys.signingSecret,
      SERVICE_RELEASE: 'kit@1',
      NODE_ENV: 'production',
    },
  );
});
afterAll(async () => {
  await service.close();
});

const input = (error: unknown, status: number, route: string | null) => ({
  error,
  status,
  message: 'Internal Error',
  event: { request: new Request('http://127.0.0.1/orders/1001'), route: { id: route } },
});

describe('handleErrorWithSvc (server)', () => {
  it('reports a 5xx at the route id, once per error, and returns what your handler returns', async () => {
    const handleError = handleErrorWithSvc(({ error }) => ({
      message: `Sorry (${(error as Error).message})`,
    }));
    const error = new Error('Order 1001 could not be loaded');
    expect(await handleError(input(error, 500, '/orders/[id]'))).toEqual({
      message: 'Sorry (Order 1001 could not be loaded)',
    });
    await handleError(input(error, 500, '/orders/[id]'));
    await handleError(input(new Error('Order 1002 could not be loaded'), 500, '/orders/[id]'));
    await getShared()!.flush();
    const cards = (await service.cards()).filter((c) => c.title.startsWith('Error: Order'));
    expect(cards.map((c) => [c.title, c.severity, c.priority, c.occurrence_count])).toEqual([
      ['Error: Order <n> could not be loaded (GET /orders/[id])', 'major', 'medium', 2],
    ]);
    expect([...cards[0]!.tags].sort()).toEqual(
      [
        'env:production',
        'method:GET',
        'release:kit@1',
        'server',
        'server-error',
        'sveltekit',
      ].sort(),
    );
  });

  it("a 404 (no route) is the visitor's mistake: no card", async () => {
    await handleErrorWithSvc()(input(new Error('Not found: /nope'), 404, null));
    await getShared()!.flush();
    expect((await service.cards()).filter((c) => c.title.includes('Not found'))).toEqual([]);
  });

  it("SvelteKit 3's input (a kind, no status): an unknown error is a 500, the app's and framework's 4xx are not", async () => {
    const event = { request: new Request('http://127.0.0.1/pay/3'), route: { id: '/pay/[id]' } };
    const handleError = handleErrorWithSvc();
    await handleError({ kind: 'unknown', error: new TypeError('Card 3 declined'), event });
    await handleError({ kind: 'framework', error: { status: 404, message: 'Not Found' }, event });
    await handleError({ kind: 'app', error: { message: 'Payment 3 refused' }, event });
    await getShared()!.flush();
    const titles = (await service.cards()).map((c) => c.title);
    expect(titles).toContain('TypeError: Card <n> declined (GET /pay/[id])');
    expect(titles.filter((t) => /Not Found|refused/.test(t))).toEqual([]);
  });
});
