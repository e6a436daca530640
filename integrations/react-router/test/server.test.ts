// The server entry's exports against the reference service, called the way React Router calls
// them (its request instrumentation wraps the request; handleError runs inside it): the real
// framework runs the app `create-react-router` makes in pack's cross-framework matrix.
import { getShared } from '@svc/runtime';
import { startTestService, type TestService } from '@svc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleErrorWithSvc, initSvc, svcInstrumentation } from '../src/index.ts';

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
      NODE_ENV: 'production',
    },
  );
});
afterAll(async () => {
  await service.close();
});

type RequestHook = (
  handle: () => Promise<{ statusCode: number; meta?: { pattern: string } }>,
  info: { request: { method: string } },
) => Promise<void>;

/** One request through the instrumentation, `errors` thrown to handleError during it. */
async function request(errors: unknown[], statusCode: number, pattern?: string) {
  let hook: RequestHook | undefined;
  svcInstrumentation().handler({ instrument: (i) => (hook = i.request) });
  const handleError = handleErrorWithSvc();
  const req = new Request('http://127.0.0.1/orders/7');
  await hook!(
    async () => {
      await new Promise((r) => setTimeout(r, 1)); // inside the request's async context
      for (const error of errors) handleError(error, { request: req });
      return { statusCode, meta: pattern ? { pattern } : undefined };
    },
    { request: { method: 'GET' } },
  );
  await getShared()!.flush();
}

const titles = async () => (await service.cards()).map((card) => card.title).sort();

describe('handleErrorWithSvc with svcInstrumentation', () => {
  it("reports the request's error when it ends with a 5xx, at the pattern it matched", async () => {
    await request([new Error('Order 7 could not be loaded')], 500, '/orders/:id');
    await request([new Error('Order 8 could not be loaded')], 500, 'orders/:id'); // as React Router writes it
    const [card] = (await service.cards()).filter((c) => c.title.startsWith('Error: Order'));
    expect(card).toMatchObject({
      title: 'Error: Order <n> could not be loaded (GET /orders/:id)',
      severity: 'major',
      priority: 'medium',
      occurrence_count: 2,
    });
    expect([...card!.tags].sort()).toEqual(
      ['env:production', 'method:GET', 'react-router', 'server', 'server-error'].sort(),
    );
  });

  it('no card for a thrown 4xx response, or a request that ended below 500', async () => {
    const before = await titles();
    await request([Object.assign(new Error('Order not found'), { status: 404 })], 500, '/a/:b');
    await request([new Error('Handled by a boundary that answered 200')], 200, '/c');
    expect(await titles()).toEqual(before);
  });

  it('outside an instrumented request: reported at once, at (no route)', async () => {
    handleErrorWithSvc()(new TypeError('Stream 5 broke'), {
      request: new Request('http://127.0.0.1/x', { method: 'POST' }),
    });
    await getShared()!.flush();
    expect(await titles()).toContain('TypeError: Stream <n> broke (POST (no route))');
  });
});
