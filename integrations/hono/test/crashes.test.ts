// An unhandled rejection in a Worker, against the reference service: workerd raises the isolate's
// `unhandledrejection` event once the request's promise jobs are done; here a stand-in isolate
// scope (an EventTarget that says it is workerd) raises it the same way, a task after the handler
// (workerd itself runs the rejection of pack's cross-framework matrix). The card is delivered by
// the time what the request handed to `waitUntil` settles: the request's flush waits that turn.
import { startTestService, type TestService } from '@svc/server/testing';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCrashHandlers } from '../src/crashes.ts';
import { svc } from '../src/index.ts';
import { bindings, cardsTitled, standInContext } from './helpers.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.close();
});

/** A workerd isolate's global scope, as far as Svc's rejection listener uses it. */
function workerdScope(): EventTarget {
  return Object.assign(new EventTarget(), { navigator: { userAgent: 'Cloudflare-Workers' } });
}

/** The event workerd raises for a rejection nobody handled. */
function rejectionEvent(reason: unknown): Event {
  return Object.assign(new Event('unhandledrejection'), { reason });
}

/** A Worker's app whose `/sync` starts work nobody awaits, which rejects in `scope`. */
function app(scope: EventTarget): Hono {
  const hono = new Hono();
  hono.use(svc({ processHandlers: false }));
  hono.use(async (c, next) => {
    installCrashHandlers(c.var.svc, {}, scope);
    await next();
  });
  hono.get('/sync', (c) => {
    const reason = new Error(`Inventory ${c.req.query('n')} sync failed`);
    setTimeout(() => scope.dispatchEvent(rejectionEvent(reason)), 0);
    return c.text('sync started');
  });
  return hono;
}

describe("a Worker's unhandled rejection", () => {
  it("one critical card per rejection, delivered within the request's waitUntil", async () => {
    const scope = workerdScope();
    const hono = app(scope);
    for (const n of [1, 2]) {
      const context = standInContext();
      const response = await hono.request(`/sync?n=${n}`, {}, bindings(service), context as never);
      expect(response.status).toBe(200);
      await context.settled();
      const [card] = await cardsTitled(
        service,
        'Error: Inventory <n> sync failed (unhandled rejection)',
      );
      expect(card).toMatchObject({ severity: 'critical', occurrence_count: n });
      expect(card!.tags).toEqual(expect.arrayContaining(['hono', 'unhandled-rejection']));
    }
  });
});
