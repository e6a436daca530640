// An unreachable service is not retried report by report (src/core/link.ts): the first network
// failure makes its report the probe, the others wait for it; any answer lets them go; the probe
// giving up fails them and what is queued, with one warning. Failures with a status keep each
// report's own retries (contract 7, 8.4). Real sockets: a closed port, and a server that drops
// connections until told to answer.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { clientFor, fakeSleep, KEY } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** A clock that moves on every reading: "prepared before the probe gave up" is then exact. */
const ticking = () => {
  let now = 0;
  return () => ++now;
};

const warnings = (log: { lines: { level: string; text: string }[] }) =>
  log.lines.filter((l) => l.level === 'warn').map((l) => l.text);

it('refused: one probe retries with backoff, the 10 queued reports fail with it, one warning', async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const { sleep, delays } = fakeSleep();
  const { client, log } = clientFor(url, KEY, { sleep, random: () => 0, now: ticking() });
  for (let i = 0; i < 10; i++) client.major(`refused ${i}`);
  const result = await client.flush();
  expect(result.failed).toBe(10);
  expect(delays).toEqual([250, 500, 1000]); // one report's retries (maxRetries 3), not ten
  expect(warnings(log)).toEqual([
    `[svc] cannot deliver to ${url}/api/v1/tasks: connection refused. Is the service running there? Check SERVICE_URL (or serviceUrl)`,
  ]);
});

it('dropped connections: 10 reports make 3 + 3 requests, not 40', async () => {
  server().respond(() => ({ destroy: true }));
  const { sleep } = fakeSleep();
  const { client, log } = clientFor(server().url, KEY, { sleep, now: ticking() });
  for (let i = 0; i < 10; i++) client.major(`dropped ${i}`);
  expect((await client.flush()).failed).toBe(10);
  // 3 first attempts (concurrency 3) and the probe's 3 retries.
  expect(server().requests).toHaveLength(6);
  expect(warnings(log)).toHaveLength(1);
});

it('the service comes back: the probe gets an answer and every report is delivered', async () => {
  let down = true;
  server().respond(() => (down ? { destroy: true } : undefined));
  const sleep = async () => {
    // Back during the probe's first backoff, once the 3 first attempts have all met the outage
    // (the third may still be on its way when the first fails).
    while (server().requests.length < 3) await new Promise((r) => setTimeout(r, 2));
    down = false;
  };
  const { client, log } = clientFor(server().url, KEY, { sleep });
  for (let i = 0; i < 10; i++) client.major(`back ${i}`);
  const result = await client.flush();
  expect(result).toMatchObject({ sent: 10, failed: 0 });
  // 3 dropped first attempts, then 10 deliveries: nobody retried while the probe waited.
  expect(server().requests).toHaveLength(13);
  expect(warnings(log)).toEqual([]);
});

it('a status is an answer: 503s keep each report retrying on its own (contract 8.4)', async () => {
  // The first attempt of each report gets a 503, whatever order the three concurrent sends and
  // their retries reach the server in.
  const refusedOnce = new Set<unknown>();
  server().respond((r) => {
    if (refusedOnce.has(r.json?.title)) return undefined;
    refusedOnce.add(r.json?.title);
    return { status: 503, body: { message: 'busy' } };
  });
  const { sleep, delays } = fakeSleep();
  const { client } = clientFor(server().url, KEY, { sleep, random: () => 0 });
  for (let i = 0; i < 3; i++) client.major(`busy ${i}`);
  expect(await client.flush()).toMatchObject({ sent: 3, failed: 0 });
  expect(delays).toEqual([250, 250, 250]); // each report backed off once
});

it('after the probe gave up, new reports probe again (the client is not disabled)', async () => {
  let down = true;
  server().respond(() => (down ? { destroy: true } : undefined));
  const { sleep } = fakeSleep();
  const { client } = clientFor(server().url, { ...KEY, maxRetries: 1 }, { sleep, now: ticking() });
  client.major('lost');
  expect((await client.flush()).failed).toBe(1);
  down = false;
  client.major('later');
  expect((await client.flush()).sent).toBe(1);
});
