// @svc/runtime/testing: the fake records what the real client would send (checked against a real
// client's request bodies), takes every call shape, applies beforeSend, and its assertions pass on
// a match and throw a readable AssertionError otherwise. Also loaded from the built package.
import { describe, expect, it } from 'vitest';
import {
  createClient,
  type SvcClient,
  type SvcOptions,
  type WirePayload,
} from '../../src/index.node.ts';
import { REPORTING_METHOD_NAMES } from '../../src/generated/methods.gen.ts';
import { AssertionError, createFakeClient, type FakeReport } from '../../src/testing/index.ts';

/** A real client whose fetch keeps the request bodies and answers 201. */
function realClient(options: SvcOptions) {
  const bodies: unknown[] = [];
  const client = createClient(
    {
      apiKey: 'svc_pub_0123456789abcdef0123456789abcdef0123456789abcdef',
      captureLocation: false,
      ...options,
    },
    {
      serviceUrl: 'http://127.0.0.1:9',
      fetch: async (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return new Response('{"deduplicated":false}', { status: 201 });
      },
    },
  );
  return { client, bodies };
}

const declined = new TypeError('card declined');

/** The same calls on any client, the way app code makes them. */
function checkout(svc: SvcClient) {
  svc.majorHigh('Checkout failed', declined, ['payments', 'eu']);
  svc.minor(' Slow page ', { route: '/orders', ms: 2300 }, 'perf, perf ,web');
  svc.critical('x'.repeat(300), 'y'.repeat(70_000));
  svc.moderateLow('');
}

describe('createFakeClient', () => {
  it('records the payload a real client sends for the same calls', async () => {
    const options: SvcOptions = { environment: 'test', release: '1.2.3', defaultTags: ['shop'] };
    const real = realClient(options);
    checkout(real.client);
    expect((await real.client.flush()).sent).toBe(4);
    const fake = createFakeClient(options);
    checkout(fake);
    // The real client queues a report once its text is ready (an Error's frames wait for the
    // maps of their scripts), so its requests come in another order.
    const byTitle = (payloads: unknown[]) =>
      [...(payloads as WirePayload[])].sort((a, b) => a.title.localeCompare(b.title));
    expect(byTitle(fake.reports.map((r) => r.payload))).toEqual(byTitle(real.bodies));
    const [first] = fake.reports as FakeReport[];
    expect(first).toMatchObject({
      method: 'majorHigh',
      severity: 'major',
      priority: 'high',
      title: 'Checkout failed',
      tags: ['shop', 'env:test', 'release:1.2.3', 'payments', 'eu'],
    });
    expect(first?.description).toMatch(/^TypeError: card declined\n {4}at /);
    expect(first?.error).toBeInstanceOf(TypeError);
  });

  it('is an SvcClient: the 16 methods take any call shape without throwing', async () => {
    const fake = createFakeClient();
    const client: SvcClient = fake;
    const shapes: unknown[][] = [
      [],
      [null],
      [undefined, undefined, undefined],
      [{}],
      [42],
      [Symbol('s')],
      [1n],
      [() => 1, [1, [2]], new Map()],
      ['t', 'd', 't', 'extra'],
    ];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    shapes.push([cyclic, cyclic, cyclic]);
    for (const name of REPORTING_METHOD_NAMES)
      for (const args of shapes) (client[name] as (...a: unknown[]) => void)(...args);
    expect(fake.reports).toHaveLength(REPORTING_METHOD_NAMES.length * shapes.length);
    expect(fake.reports.every((r) => r.title.length > 0)).toBe(true);
    expect(fake.reports[0]?.title).toBe('Untitled error');
    expect((await fake.flush()).sent).toBe(fake.reports.length);
  });

  it('applies beforeSend like the real client: changed, dropped, async, throwing', async () => {
    const fake = createFakeClient({
      beforeSend: (payload) => {
        if (payload.title === 'drop me') return null;
        if (payload.title === 'throw') throw new Error('scrubber broke');
        if (payload.title === 'later')
          return Promise.resolve({ ...payload, title: 'later, scrubbed' });
        return {
          ...payload,
          title: payload.title.replace(/\d+/g, '#'),
          severity: 'minor' as const,
        };
      },
    });
    fake.major('order 42');
    fake.major('drop me');
    fake.major('throw');
    fake.major('later');
    const result = await fake.flush();
    expect(fake.reports.map((r) => [r.title, r.severity])).toEqual([
      ['order #', 'major'],
      ['later, scrubbed', 'major'],
    ]);
    expect(result).toMatchObject({ sent: 2, dropped: { beforeSend: 2 } });
  });

  it('ignores credentials, enabled and sampleRate: a fake sees every report', () => {
    const fake = createFakeClient({ enabled: false, sampleRate: 0, apiKey: 'svc_pub_x' });
    fake.minor('still recorded');
    fake.assertReportedCount(1);
  });
});

describe('assertions', () => {
  const made = () => {
    const fake = createFakeClient();
    fake.critical('Database down');
    fake.minorLow('Slow query', 'took 2 s');
    fake.minorLow('Slow query');
    return fake;
  };

  it('pass on what was reported', async () => {
    const fake = made();
    fake.assertReported('Database down');
    fake.assertReported('Database down', { severity: 'critical', priority: 'medium', times: 1 });
    fake.assertReported(/^Slow/, { times: 2 });
    fake.assertReported((r) => r.description === 'took 2 s');
    fake.assertReported(undefined, { priority: 'low', times: 2 });
    fake.assertNotReported('Disk full');
    fake.assertNotReported('Database down', { severity: 'minor' });
    fake.assertReportedCount(3);
    expect(fake.reported(/query/)).toHaveLength(2);
    await fake.flush();
    fake.assertFlushed(1);
    createFakeClient().assertNothingReported();
  });

  it('throw an AssertionError that says what was expected and what was reported', async () => {
    const fake = made();
    const failures: (() => void)[] = [
      () => fake.assertReported('Disk full'),
      () => fake.assertReported('Database down', { severity: 'major' }),
      () => fake.assertReported('Slow query', { times: 1 }),
      () => fake.assertNotReported('Database down'),
      () => fake.assertNothingReported(),
      () => fake.assertReportedCount(2),
      () => fake.assertFlushed(),
    ];
    for (const failing of failures) expect(failing).toThrow(AssertionError);
    expect(() => fake.assertReported('Disk full')).toThrow(
      'Expected a report titled "Disk full"; reported: critical/medium "Database down", minor/low "Slow query", minor/low "Slow query"',
    );
    await fake.flush();
    fake.major('After the flush');
    expect(fake.pending()).toHaveLength(1);
    expect(() => fake.assertFlushed()).toThrow(
      'Expected flush() to run after the last report; it ran 1 time(s) and 1 report(s) wait for the next one',
    );
    fake.reset();
    fake.assertNothingReported();
  });
});
