// Core client lifecycle: timers held only while busy, pending locations counted against the
// queue bound, beforeSend after the (async) location. Uses the core with a stub platform where the
// platform itself is the subject (the stub says why).
import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { createCoreClient } from '../../src/core/client.ts';
import type { Platform, ShutdownHooks } from '../../src/core/port.ts';
import { REPORTING_METHOD_NAMES, REPORTING_METHODS } from '../../src/generated/methods.gen.ts';
import { clientFor, KEY } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

it('the cadence timer of a busy client never keeps the event loop alive (unref)', async () => {
  // getActiveResourcesInfo() lists only handles that keep the loop alive (ref'd).
  const before = timeouts();
  const { client } = clientFor(server().url, { ...KEY, flushIntervalMs: 60_000 });
  client.major('one');
  client.major('two');
  expect(timeouts()).toBe(before);
  expect((await client.flush()).sent).toBe(2);
});

// End to end, the child-process tests in test/e2e/service.test.ts show the same: 60 s cadence,
// yet the process ends at once and beforeExit delivers everything.

/** Stub platform: a location capture that resolves later (like browser source maps), on demand. */
function deferredPlatform() {
  const resolvers: ((l: { file_name: string }) => void)[] = [];
  const platform: Platform = {
    optionDefaults: { sourceMaps: false },
    captureLocation: () => new Promise((r) => resolvers.push(r)),
  };
  return { platform, resolvers };
}

it('a pending location counts against maxQueueSize, and beforeSend sees the resolved location', async () => {
  const { platform, resolvers } = deferredPlatform();
  const seen: unknown[] = [];
  const client = createCoreClient(
    platform,
    {
      ...KEY,
      maxQueueSize: 2,
      beforeSend: (p) => {
        seen.push(p.file_name);
        return p;
      },
    },
    {
      serviceUrl: server().url,
      logger: { debug() {}, info() {}, warn() {} },
    },
  );
  client.major('a');
  client.major('b');
  client.major('c'); // both slots are held by pending locations
  expect(resolvers).toHaveLength(2);
  const flushed = client.flush();
  resolvers[0]({ file_name: 'src/a.ts' });
  resolvers[1]({ file_name: 'src/b.ts' });
  const r = await flushed;
  expect(r).toMatchObject({ sent: 2, dropped: { overflow: 1 } });
  expect(seen.sort()).toEqual(['src/a.ts', 'src/b.ts']);
  expect(
    server()
      .requests.map((q) => q.json?.file_name)
      .sort(),
  ).toEqual(['src/a.ts', 'src/b.ts']);
});

it('a failed send does not stop the queue; results reset after each flush', async () => {
  server().respond((req) => (req.json?.title === 'bad' ? { status: 400 } : undefined));
  const { client } = clientFor(server().url, KEY);
  client.major('bad');
  client.major('good');
  expect(await client.flush()).toMatchObject({ sent: 1, failed: 1 });
  expect(await client.flush()).toMatchObject({ sent: 0, failed: 0 });
  server().respond(() => undefined);
});

it('passes captureLocation, lineNumbers and sourceMaps (platform default unless set) to the capture', () => {
  const seen: unknown[] = [];
  const platform: Platform = {
    // Node's defaults; the browser entry passes optionDefaults { sourceMaps: false }
    captureLocation: (_d, opts) => {
      seen.push(opts);
      return undefined;
    },
  };
  const silent = { logger: { debug() {}, info() {}, warn() {} } };
  createCoreClient(platform, { ...KEY, logLocally: true }, silent).major('a');
  createCoreClient(
    platform,
    { ...KEY, logLocally: true, sourceMaps: false, lineNumbers: true },
    silent,
  ).major('b');
  createCoreClient(
    { ...platform, optionDefaults: { sourceMaps: false } },
    { ...KEY, logLocally: true },
    silent,
  ).major('c');
  // The capture gets the resolved options and reads these three.
  expect(seen).toMatchObject([
    { captureLocation: true, lineNumbers: false, sourceMaps: true },
    { captureLocation: true, lineNumbers: true, sourceMaps: false },
    { captureLocation: true, lineNumbers: false, sourceMaps: false },
  ]);
});

it('builds exactly the 16 generated methods, each with its severity and priority', async () => {
  const { client } = clientFor(server().url, KEY);
  const names = REPORTING_METHOD_NAMES;
  expect(
    Object.keys(client)
      .filter((k) => k !== 'flush')
      .sort(),
  ).toEqual([...names].sort());
  for (const name of names) client[name](name);
  expect(await client.flush()).toMatchObject({ sent: 16 });
  const got: Record<string, Record<string, string[]>> = {};
  for (const q of server().requests) {
    const row = got[String(q.json?.severity)] ?? {};
    row[String(q.json?.priority)] = [
      ...(row[String(q.json?.priority)] ?? []),
      String(q.json?.title),
    ];
    got[String(q.json?.severity)] = row;
  }
  for (const row of Object.values(got)) for (const list of Object.values(row)) list.sort();
  const want = structuredClone(REPORTING_METHODS) as unknown as Record<
    string,
    Record<string, string[]>
  >;
  for (const row of Object.values(want)) for (const list of Object.values(row)) list.sort();
  expect(got).toEqual(want);
});

it('unload sends reports still waiting for their location, without it (browser pagehide)', async () => {
  // Stub platform: the subject is the unload hook the platform receives; the real browser entry is
  // covered in Chromium (test/platform/browser.test.ts).
  let hooks: ShutdownHooks | undefined;
  const never = new Promise<never>(() => undefined);
  const platform: Platform = {
    optionDefaults: { sourceMaps: false },
    captureLocation: () => never,
    attach(h) {
      hooks = h;
      return () => undefined;
    },
  };
  const client = createCoreClient(
    platform,
    { ...KEY, flushIntervalMs: 600_000 },
    {
      serviceUrl: server().url,
      logger: { debug() {}, info() {}, warn() {} },
    },
  );
  client.major('pending at unload');
  hooks?.unload();
  const r = await client.flush({ timeoutMs: 2000 });
  expect(r.sent).toBe(1);
  expect(server().requests.map((q) => q.json?.title)).toEqual(['pending at unload']);
  expect(server().requests[0].json).not.toHaveProperty('file_name');
});

describe('the reporting call takes the report; the payload is built after it returns', () => {
  it('reads no tag, builds no payload and runs no beforeSend in the call', async () => {
    const reads: string[] = [];
    const tags = new Proxy(['checkout'], {
      get(target, key, receiver) {
        if (typeof key === 'string') reads.push(key);
        return Reflect.get(target, key, receiver);
      },
    });
    const seen: string[] = [];
    const { client } = clientFor(server().url, {
      ...KEY,
      beforeSend: (p) => {
        seen.push(p.title);
        return p;
      },
    });
    await new Promise((r) => setTimeout(r, 50)); // the beforeSend chunk has loaded
    client.major('Taken', 'later', tags);
    expect(reads).toEqual([]);
    expect(seen).toEqual([]);
    await Promise.resolve(); // a microtask later
    expect(reads).not.toEqual([]);
    expect(seen).toEqual(['Taken']);
    expect(await client.flush()).toMatchObject({ sent: 1 });
    expect(server().requests[0].json).toMatchObject({ title: 'Taken', tags: ['checkout'] });
  });

  it('flush() builds what the calls of this task took, in order', async () => {
    const { client } = clientFor(server().url, { ...KEY, concurrency: 1 });
    for (const title of ['one', 'two', 'three']) client.minor(title);
    expect(await client.flush()).toMatchObject({ sent: 3 });
    expect(server().requests.map((r) => r.json?.title)).toEqual(['one', 'two', 'three']);
  });

  it('a report made by beforeSend while the others are built is sent too', async () => {
    let again = true;
    const { client } = clientFor(server().url, {
      ...KEY,
      beforeSend: (p) => {
        if (again) {
          again = false;
          client.minor('From beforeSend');
        }
        return p;
      },
    });
    await new Promise((r) => setTimeout(r, 50));
    client.major('First');
    client.major('Second');
    expect(await client.flush()).toMatchObject({ sent: 3 });
    expect(
      server()
        .requests.map((r) => r.json?.title)
        .sort(),
    ).toEqual(['First', 'From beforeSend', 'Second']);
  });

  it.each([false, true])(
    'a Node call with a string creates no async resource in its caller (captureLocation: %s)',
    async (captureLocation) => {
      const { client } = clientFor(server().url, { ...KEY, captureLocation });
      client.major('warm-up'); // the first call of a client
      await client.flush();
      const created: string[] = [];
      const hook = createHook({ init: (_id, type) => void created.push(type) }).enable();
      try {
        for (let i = 0; i < 10; i++) client.major('In a request', `detail ${i}`, ['a']);
      } finally {
        hook.disable();
      }
      expect(created).toEqual([]);
      expect((await client.flush()).sent).toBe(10);
      // The call site, located when the report was built.
      if (captureLocation)
        expect(server().requests.at(-1)?.json?.file_name).toMatch(/test\/core\/client\.test\.ts$/);
    },
  );
});
