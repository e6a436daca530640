// Property: no input to createClient or to any of the 16 methods throws, and nothing leaves an
// unhandled rejection, whatever the network does. The "network" here is an injected fetch that
// throws, rejects or answers garbage: the point is the client's own input handling.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPORTING_METHOD_NAMES } from '../../src/generated/methods.gen.ts';
import { createClient, type SvcOptions } from '../../src/index.node.ts';

const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);
beforeAll(() => process.on('unhandledRejection', onUnhandled));
afterAll(() => process.off('unhandledRejection', onUnhandled));

const silent = { debug() {}, info() {}, warn() {} };
const weird = fc.oneof(
  fc.anything({
    withBigInt: true,
    withMap: true,
    withSet: true,
    withDate: true,
    withNullPrototype: true,
    withTypedArray: true,
    withSparseArray: true,
    withBoxedValues: true,
  }),
  fc.constant(
    Object.assign(new Error('with cause'), { cause: { deep: [1n, new Map([[1, new Set([2])]])] } }),
  ),
  fc.constant(
    (() => {
      const a: Record<string, unknown> = {};
      a.self = a;
      return a;
    })(),
  ),
  fc.constant(
    new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('trap');
        },
      },
    ),
  ),
  fc.constant(
    Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    }),
  ),
  fc.string({ unit: 'binary', maxLength: 300 }),
);
const beforeSend = fc.oneof(
  fc.func(weird),
  fc.constant(() => {
    throw new Error('beforeSend throws');
  }),
  fc.constant(async () => {
    throw new Error('beforeSend rejects');
  }),
  fc.constant(() =>
    Promise.resolve(
      new Proxy(
        {},
        {
          get() {
            throw new Error('trap');
          },
        },
      ),
    ),
  ),
);
const options = fc.oneof(
  weird,
  fc.record(
    {
      apiKey: fc.oneof(fc.constant('svc_pub_0123'), weird),
      keyId: fc.oneof(fc.constant('svck_1'), weird),
      signingSecret: fc.oneof(fc.constant('svc_sec_1'), weird),
      encryptionPublicKey: fc.oneof(
        fc.constant('B6N8vBQgk8i3VdwbEOhstCY3StFqqFPtC9/AsrhtHHw='),
        weird,
      ),
      encryptionKeyId: weird,
      enabled: weird,
      environment: weird,
      release: weird,
      defaultTags: weird,
      sampleRate: fc.oneof(fc.double(), weird),
      hideApiResponse: weird,
      captureLocation: weird,
      lineNumbers: weird,
      sourceMaps: weird,
      maxQueueSize: fc.oneof(fc.integer(), weird),
      concurrency: fc.oneof(fc.integer(), weird),
      flushIntervalMs: fc.oneof(fc.integer({ min: -5, max: 5 }), weird),
      timeoutMs: fc.oneof(fc.integer({ min: -5, max: 50 }), weird),
      maxRetries: fc.oneof(fc.integer({ min: -1, max: 2 }), weird),
      beforeSend: fc.oneof(beforeSend, weird),
      debug: weird,
      logLocally: weird,
    },
    { requiredKeys: [] },
  ),
);
const network = fc.constantFrom('throw', 'reject', 'garbage', 'ok', 'dropped', 'status');

function fetchFor(mode: string): typeof fetch {
  return async () => {
    if (mode === 'throw') throw new TypeError('fetch failed');
    if (mode === 'reject') return Promise.reject(new Error('network down'));
    if (mode === 'garbage') return new Response('<html>not json', { status: 200 });
    if (mode === 'dropped')
      return new Response('{"dropped":true,"reason":"weird"}', { status: 200 });
    if (mode === 'status')
      return new Response('', { status: 500, headers: { 'retry-after': '0' } });
    return new Response('{"deduplicated":false}', { status: 201 });
  };
}

it('never throws, never rejects, never leaves an unhandled rejection', async () => {
  await fc.assert(
    fc.asyncProperty(
      options,
      network,
      fc.array(fc.tuple(fc.constantFrom(...REPORTING_METHOD_NAMES), weird, weird, weird), {
        maxLength: 6,
      }),
      async (opts, mode, calls) => {
        const client = createClient(opts as SvcOptions, {
          fetch: fetchFor(mode),
          logger: silent,
          sleep: async () => {},
        });
        for (const [name, title, description, tags] of calls) {
          expect(client[name](title as string, description, tags as string)).toBeUndefined();
        }
        const r = await client.flush({ timeoutMs: 2000 });
        expect(typeof r.sent).toBe('number');
      },
    ),
    { numRuns: 300 },
  );
  await new Promise((r) => setTimeout(r, 50));
  expect(unhandled).toEqual([]);
});

it('createClient accepts any deps value', () => {
  for (const deps of [null, 5, 'x', [], { fetch: 5, now: 'x', logger: null }]) {
    expect(() => createClient({ apiKey: 'svc_pub_1' }, deps as never).major('x')).not.toThrow();
  }
});
