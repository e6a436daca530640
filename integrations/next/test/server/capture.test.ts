import { claimCrash, reportedByRequest } from '@svc/runtime/kit';
import { describe, expect, it } from 'vitest';
import { createRequestErrorHandler } from '../../src/server/capture.ts';
import { recordingClient } from '../helpers/recording-client.ts';

// A new headers object per request, as Next passes a Node request's own `headers`.
const newRequest = () => ({ path: '/api/boom?id=7', method: 'GET', headers: {} });
const request = newRequest();
const routeContext = { routerKind: 'App Router', routePath: '/api/boom', routeType: 'route' };
const noPlatform = { getWaitUntil: () => undefined };

describe('createRequestErrorHandler', () => {
  it('reports a real error once, with a stable title, the error as description and tags', async () => {
    const client = recordingClient();
    const handler = createRequestErrorHandler({ getClient: () => client, flush: noPlatform });
    const error = Object.assign(new Error('db down'), { digest: '99' });
    await handler(error, newRequest(), routeContext);
    expect(client.calls).toEqual([
      {
        method: 'majorMedium',
        title: 'Error: db down (GET /api/boom)',
        description: error,
        tags: ['next', 'server', 'server-error', 'method:GET'],
      },
    ]);
    // A long-running server: the background queue delivers, the response does not wait.
    expect(client.flushes).toBe(0);
  });

  // Under cacheComponents + Partial Prefetching Next renders a failing page twice per request and
  // calls onRequestError for each render with a new error object (same throw site) and digest.
  const renderFails = (id: number, digest: string) =>
    Object.assign(new Error(`Order ${id} missing`), { digest });
  const render = { ...routeContext, routeType: 'render', routePath: '/boom/[id]' };

  it('reports an error once per request when Next calls twice for one request', async () => {
    const client = recordingClient();
    const handler = createRequestErrorHandler({ getClient: () => client, flush: noPlatform });
    const first = newRequest();
    await handler(renderFails(41, '321679723'), first, render);
    await handler(renderFails(41, '3052120218'), first, render);
    const second = newRequest();
    await handler(renderFails(42, '3744929995'), second, render);
    await handler(renderFails(42, '1015246650'), second, render);
    expect(client.calls.map((c) => (c.description as { digest: string }).digest)).toEqual([
      '321679723',
      '3744929995',
    ]);
  });

  it('still reports two different errors of one request', async () => {
    const client = recordingClient();
    const handler = createRequestErrorHandler({ getClient: () => client, flush: noPlatform });
    const one = newRequest();
    await handler(new Error('header failed'), one, render);
    await handler(new Error('footer failed'), one, render);
    expect(client.calls.map((c) => c.title)).toEqual([
      'Error: header failed (GET /boom/[id])',
      'Error: footer failed (GET /boom/[id])',
    ]);
  });

  it('uses the configured reporting method', async () => {
    const client = recordingClient();
    const handler = createRequestErrorHandler({
      method: 'criticalHigh',
      getClient: () => client,
      flush: noPlatform,
    });
    await handler(new Error('x'), newRequest(), { ...routeContext, routeType: 'action' });
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
    await handler(new Error('x'), newRequest(), routeContext); // would hang 10 s if awaited
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

  it('one card per error between onRequestError and the crash handlers (src/server/crashes.ts)', async () => {
    const client = recordingClient();
    const handler = createRequestErrorHandler({ getClient: () => client, flush: noPlatform });
    // Reported here first: the crash handlers leave it when a promise rejects with it unhandled.
    const rendered = new Error('stock unavailable');
    await handler(rendered, newRequest(), render);
    expect(reportedByRequest(rendered)).toBe(true);
    // Rejected unhandled and reported as a crash first: not reported again by the render.
    const crashed = new Error('sync failed');
    expect(claimCrash(crashed)).toBe(true);
    await handler(crashed, newRequest(), render);
    expect(client.calls.map((c) => c.title)).toEqual(['Error: stock unavailable (GET /boom/[id])']);
  });
});
