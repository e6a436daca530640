// One exit budget per process (src/core/exit-flush.ts): while the service does not answer, the
// exit flushes of a process (a framework's close hook, its signal handler, a serverless hand-off)
// hold the host `timeoutMs` + 0.5 s in all, however many there are; a refused service holds it
// for no backoff at all; an answer proves the service back and makes the budget whole again. In
// process, through the kit's `flushWithin`, on the recording server (silent: it delays its
// answers past every deadline) and a closed port. The child-process cases are in exit.test.ts.
import { type AddressInfo, createServer } from 'node:net';
import { beforeEach, expect, it } from 'vitest';
import { carrier } from '../../src/core/shared.ts';
import { flushWithin } from '../../src/kit/flush.ts';
import { clientFor, KEY, type LogLine } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();
const TIMEOUT_MS = 400;
/** What the exit flushes of a process may hold it for in all while the service is silent. */
const BUDGET_MS = TIMEOUT_MS + 500;
/** Timers and the loaded machine: a bound, not a measurement. */
const SLACK_MS = 400;

beforeEach(() => {
  // The budget is the process's (the global carrier's): each test starts with all of it.
  const budget = carrier().exitBudget as { spentMs: number } | undefined;
  if (budget) budget.spentMs = 0;
});

const warnings = (lines: LogLine[]) => lines.filter((l) => l.level === 'warn').map((l) => l.text);
const silent = () => server().respond(() => ({ delayMs: 60_000 }));

/** Runs `n` flush events of one report each; the time each held the caller. */
async function flushEvents(client: ReturnType<typeof clientFor>['client'], n: number) {
  const held: number[] = [];
  const failed: number[] = [];
  for (let i = 0; i < n; i++) {
    client.major(`flush event ${i}`);
    const started = Date.now();
    const result = await flushWithin(client, 30_000);
    held.push(Date.now() - started);
    failed.push(result?.failed ?? -1);
  }
  return { held, failed };
}

it('a silent service: four flush events hold the process timeoutMs + 0.5 s in all', async () => {
  silent();
  const { client, log } = clientFor(server().url, { ...KEY, timeoutMs: TIMEOUT_MS });
  const { held, failed } = await flushEvents(client, 4);
  console.log('held per flush event (ms):', held);
  expect(failed).toEqual([1, 1, 1, 1]);
  expect(held[0]).toBeGreaterThanOrEqual(TIMEOUT_MS); // the first waited for an answer
  expect(held.reduce((a, b) => a + b, 0)).toBeLessThan(BUDGET_MS + SLACK_MS);
  expect(held[3]).toBeLessThan(SLACK_MS); // nothing left: no attempt at all
  // Each flush event counts its own report in its one line, with the time it waited.
  const lines = warnings(log.lines);
  expect(lines.map((l) => /\] (\d+) report\(s\) not delivered before exit/.exec(l)?.[1])).toEqual([
    '1',
    '1',
    '1',
    '1',
  ]);
  expect(lines.every((l) => l.includes(`${server().url}/api/v1/tasks, no answer in time`))).toBe(
    true,
  );
});

it('an answer proves the service back: the budget is whole again', async () => {
  silent();
  const { client } = clientFor(server().url, { ...KEY, timeoutMs: TIMEOUT_MS });
  const before = await flushEvents(client, 3);
  expect(before.held[2]).toBeLessThan(SLACK_MS); // spent
  server().respond(() => undefined); // answers again (201)
  client.major('back');
  expect(await client.flush()).toMatchObject({ sent: 1 }); // the background queue's delivery
  silent();
  const after = await flushEvents(client, 1);
  expect(after.failed).toEqual([1]);
  expect(after.held[0]).toBeGreaterThanOrEqual(TIMEOUT_MS); // waited for an answer again
});

it('a refused service: no backoff, no wait, one line per flush event', async () => {
  const listener = createServer();
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  const { port } = listener.address() as AddressInfo;
  await new Promise((r) => listener.close(r));
  const { client, log } = clientFor(`http://127.0.0.1:${port}`, { ...KEY, timeoutMs: TIMEOUT_MS });
  for (let i = 0; i < 10; i++) client.major(`refused ${i}`);
  const started = Date.now();
  const result = await flushWithin(client, 30_000);
  const held = Date.now() - started;
  console.log(`refused: held ${held} ms`);
  expect(result?.failed).toBe(10);
  expect(held).toBeLessThan(250); // the first backoff alone is 250 ms or more
  expect(warnings(log.lines)).toEqual([
    expect.stringMatching(
      new RegExp(
        `^\\[svc\\] 10 report\\(s\\) not delivered before exit: http://127\\.0\\.0\\.1:${port}/api/v1/tasks, connection refused; waited \\d+ ms\\.`,
      ),
    ),
  ]);
});

it('two exit flushes at once (a close hook and a signal) share one deadline', async () => {
  silent();
  const { client, log } = clientFor(server().url, { ...KEY, timeoutMs: TIMEOUT_MS });
  for (let i = 0; i < 5; i++) client.major(`together ${i}`);
  const started = Date.now();
  const [first, second] = await Promise.all([
    flushWithin(client, 30_000),
    flushWithin(client, 30_000),
  ]);
  const held = Date.now() - started;
  expect((first?.failed ?? 0) + (second?.failed ?? 0)).toBe(5);
  expect(held).toBeLessThan(BUDGET_MS + SLACK_MS);
  expect(warnings(log.lines)).toHaveLength(1);
  expect(warnings(log.lines)[0]).toContain('5 report(s) not delivered before exit');
});
