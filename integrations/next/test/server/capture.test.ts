import { describe, expect, it } from 'vitest';
import { createRequestErrorHandler } from '../../src/server/capture.ts';
import { recordingClient } from '../helpers/recording-client.ts';

const request = { path: '/api/boom?id=7', method: 'GET', headers: {} };
const routeContext = { routerKind: 'App Router', routePath: '/api/boom', routeType: 'route' };
const noPlatform = { getWaitUntil: () => undefined };

describe('createRequestErrorHandler', () => {
  it('reports a real error once, with a stable title, the error as description and tags', async () => {
    const client = recordingClient();
    const handler = createRequestErrorHandler({ getClient: () => client, flush: noPlatform });
    const error = Object.assign(new Error('db down'), { digest: '99' });
    await handler(error, request, routeContext);
    expect(client.calls).toEqual([
      {
        method: 'majorMedium',
        title: 'Error: db down (GET /api/boom)',
        description: error,
        tags: ['next', 'server', 'server-error', 'method:GET'],
      },
    ]);
    expect(client.flushes).toBe(1);
  });

  it.each([
    [
      'redirect',
      Object.assign(new Error('NEXT_REDIRECT'), { digest: 'NEXT_REDIRECT;push;/;307;' }),
    ],
    ['notFound', Object.assign(new Error('x'), { digest: 'NEXT_HTTP_ERROR_FALLBACK;404' })],
  ])('ignores %s without reporting or flushing', async (_name, error) => {
    const client = recordingClient();
    const handler = createRequestErrorHandler({ getClient: () => client, flush: noPlatform });
    await handler(error, request, routeContext);
    expect(client.calls).toEqual([]);
    expect(client.flushes).toBe(0);
  });

  it('uses the configured reporting method', async () => {
    const client = recordingClient();
    const handler = createRequestErrorHandler({
      method: 'criticalHigh',
      getClient: () => client,
      flush: noPlatform,
    });
    await handler(new Error('x'), request, { ...routeContext, routeType: 'action' });
    expect(client.calls.map((c) => [c.method, c.title])).toEqual([
      ['criticalHigh', 'Error: x (GET /api/boom)'],
    ]);
  });

  it('hands the flush to waitUntil instead of holding the request', async () => {
    const client = recordingClient(10_000);
    const waited: Promise<unknown>[] = [];
    const handler = createRequestErrorHandler({
      getClient: () => client,
      flush: { getWaitUntil: () => (p) => waited.push(p) },
    });
    await handler(new Error('x'), request, routeContext); // would hang 10 s if it awaited the flush
    expect(waited).toHaveLength(1);
  });

  it('never throws, even when the client does', async () => {
    const handler = createRequestErrorHandler({
      getClient: () => {
        throw new Error('broken');
      },
    });
    await expect(handler(new Error('x'), request, routeContext)).resolves.toBeUndefined();
  });

  it('does nothing without a client', async () => {
    const handler = createRequestErrorHandler({ getClient: () => undefined });
    await expect(handler(new Error('x'), request, routeContext)).resolves.toBeUndefined();
  });
});
