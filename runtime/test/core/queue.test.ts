// The drain loop: never more than `concurrency` requests in flight, whatever timers and flushes do.
import { expect, it } from 'vitest';
import { clientFor, KEY } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

/** A fetch that counts requests in flight on the client side. */
function countingFetch() {
  const inner = globalThis.fetch;
  const stats = { now: 0, max: 0 };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    stats.now++;
    stats.max = Math.max(stats.max, stats.now);
    try {
      const res = await inner(input, init);
      await res.clone().text();
      return res;
    } finally {
      stats.now--;
    }
  };
  return { fetch, stats };
}

it('never exceeds concurrency with slow responses, overlapping timer ticks and flushes', async () => {
  server().respond((_r, i) => ({ delayMs: 40 + (i % 3) * 30 }));
  const { fetch, stats } = countingFetch();
  const { client } = clientFor(
    server().url,
    { ...KEY, concurrency: 2, flushIntervalMs: 1, maxQueueSize: 1000 },
    { fetch },
  );
  const flushes: Promise<unknown>[] = [];
  for (let i = 0; i < 30; i++) {
    client.major(`report ${i}`);
    if (i % 4 === 0) flushes.push(client.flush());
    if (i % 7 === 0) await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(flushes);
  const last = await client.flush();
  const total = (await Promise.all(flushes)).length;
  expect(total).toBeGreaterThan(0);
  expect(server().requests).toHaveLength(30);
  expect(stats.max).toBe(2);
  expect(server().maxInFlight()).toBe(2);
  expect(last.failed).toBe(0);
});

it('default concurrency is 3', async () => {
  server().respond(() => ({ delayMs: 50 }));
  const { fetch, stats } = countingFetch();
  const { client } = clientFor(server().url, KEY, { fetch });
  for (let i = 0; i < 10; i++) client.major(`r${i}`);
  expect((await client.flush()).sent).toBe(10);
  expect(stats.max).toBe(3);
});

it('a slow request holds only its own slot', async () => {
  server().respond((req) => ({ delayMs: req.json?.title === 'slow' ? 600 : 10 }));
  const { client } = clientFor(server().url, { ...KEY, concurrency: 2 });
  client.major('slow');
  for (let i = 0; i < 8; i++) client.major(`fast ${i}`);
  const flushed = client.flush();
  await new Promise((r) => setTimeout(r, 400));
  // All fast reports went through the second slot while the slow one was still pending.
  expect(server().requests.filter((r) => String(r.json?.title).startsWith('fast'))).toHaveLength(8);
  expect((await flushed).sent).toBe(9);
});
