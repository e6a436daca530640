// A platform with `loadDescribe` instead of `describe` (the browser entry) renders non-string titles
// and descriptions in a lazily loaded chunk: the text must be exactly what `describe` gives synchronously on Node, the
// report waits (held) until the chunk is there, and an unload first still sends the report. Stub
// platform: the subject is the core's handling of a missing `describe`; the real browser entry is
// covered in Chromium (test/platform/browser.test.ts).
import { expect, it } from 'vitest';
import { createCoreClient } from '../../src/core/client.ts';
import { describe as render } from '../../src/core/describe.ts';
import type { Platform, ShutdownHooks } from '../../src/core/port.ts';
import { KEY } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

function lazyClient(options = {}) {
  let hooks: ShutdownHooks | undefined;
  const platform: Platform = {
    optionDefaults: { sourceMaps: false },
    // The core's describe as the lazy chunk (the browser entry loads its own, which also rewrites
    // stack frames: test/location/browser.test.ts).
    loadDescribe: () =>
      import('../../src/core/describe.ts').then((chunk) => ({
        describe: (value: unknown) => chunk.describe(value),
      })),
    attach(h) {
      hooks = h;
      return () => undefined;
    },
  };
  const client = createCoreClient(
    platform,
    { ...KEY, flushIntervalMs: 600_000, ...options },
    {
      serviceUrl: server().url,
      logger: { debug() {}, info() {}, warn() {} },
    },
  );
  return { client, unload: () => hooks?.unload() };
}

it('renders non-string descriptions and titles exactly like describe(); beforeSend sees the text', async () => {
  const cyclic: Record<string, unknown> = { n: 1n, set: new Set([1]), map: new Map([['a', 1]]) };
  cyclic.self = cyclic;
  const error = new Error('outer', { cause: new RangeError('inner') });
  const seen: unknown[] = [];
  const beforeSend = (p: unknown) => {
    seen.push(p);
    return p;
  };
  const { client } = lazyClient({ beforeSend });
  client.major('first', error);
  client.minor('second', cyclic);
  client.critical({ title: 'object title' } as unknown as string, 'plain');
  client.moderate('plain', 'text');
  const r = await client.flush({ timeoutMs: 5000 });
  expect(r.sent).toBe(4);
  const byTitle = new Map(server().requests.map((q) => [q.json?.title, q.json]));
  expect(byTitle.get('first')?.description).toBe(render(error));
  expect(byTitle.get('second')?.description).toBe(render(cyclic));
  expect(byTitle.get(render({ title: 'object title' }))?.description).toBe('plain');
  expect(byTitle.get('plain')?.description).toBe('text');
  const sawFirst = seen.find((p) => (p as { title: string }).title === 'first');
  expect((sawFirst as { description: string }).description).toMatch(
    /^Error: outer\n.*Caused by: RangeError: inner/s,
  );
});

it('a non-string report still waiting for the describe chunk at unload is sent, as String(value)', async () => {
  const { client, unload } = lazyClient();
  client.major('unloading', new TypeError('gone'));
  unload();
  const r = await client.flush({ timeoutMs: 5000 });
  expect(r.sent).toBe(1);
  expect(server().requests[0].json?.description).toBe('TypeError: gone');
});
