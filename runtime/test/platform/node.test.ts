// Node platform: persistent connections and the shared client across two copies of the package.
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { clientFor, KEY } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

it('a burst at concurrency 2 opens at most 2 connections (one keep-alive node:http agent)', async () => {
  // No injected fetch: the platform's node:http sender and its agent, for real.
  const before = server().sockets();
  const { client } = clientFor(server().url, { ...KEY, concurrency: 2 });
  for (let round = 0; round < 5; round++) {
    server().respond((_r, i) => ({ delayMs: (i * 7) % 20 })); // completions interleave
    for (let i = 0; i < 10; i++) client.major(`keep-alive ${round}.${i}`);
    expect((await client.flush()).sent).toBe(10);
  }
  expect(server().requests).toHaveLength(50);
  const sockets = server().sockets() - before;
  console.log(`50 requests (bursts of 10 at concurrency 2) over ${sockets} sockets`);
  expect(sockets).toBeLessThanOrEqual(2);
});

it('ESM and CJS builds share one client through the global carrier', async () => {
  const esm = await import('@svc/runtime');
  const cjs = createRequire(import.meta.url)('@svc/runtime') as typeof esm;
  expect(cjs.createClient).not.toBe(esm.createClient); // really two copies
  expect(esm.getShared()).toBeUndefined();
  const a = esm.initShared({ ...KEY, enabled: false });
  const b = cjs.initShared({ apiKey: 'other' });
  expect(b).toBe(a);
  expect(cjs.getShared()).toBe(a);
  expect(esm.getShared()).toBe(a);
});
