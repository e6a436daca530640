// The Deno entry (src/index.deno.ts, the `deno` export condition): the build that reads no file,
// with a server's exit. Its client has the exit flush the integrations' signal handlers call through
// the kit's `flushWithin` (given up at the deadline, one warning, no backoff for a refused
// service), on the process's one exit budget; Deno's fetch failures are named as Node's. Run here
// on Node (the platform's code is plain fetch and timers); real Deno runs it in the pack matrix
// (`pack/test/matrix/hono.test.ts`, SIGTERM with the service up, refusing and silent).
import { freePort } from '@svc/testkit';
import { beforeEach, expect, it } from 'vitest';
import { EXIT } from '../../src/core/exit.ts';
import { carrier } from '../../src/core/shared.ts';
import { createClient } from '../../src/index.deno.ts';
import { flushWithin } from '../../src/kit/flush.ts';
import { withCode } from '../../src/platform/deno.ts';
import { clientFor, KEY } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();
const TIMEOUT_MS = 400;

beforeEach(() => {
  const budget = carrier().exitBudget as { spentMs: number } | undefined;
  if (budget) budget.spentMs = 0;
});

function denoClient(url: string) {
  const { client, log } = clientFor(url, { ...KEY, timeoutMs: TIMEOUT_MS }, {}, createClient);
  const warnings = () => log.lines.filter((l) => l.level === 'warn').map((l) => l.text);
  return { client, warnings };
}

it('the client has the exit flush: a refused service is given up at once, in one line', async () => {
  const url = `http://127.0.0.1:${await freePort()}`; // nothing listens there
  const { client, warnings } = denoClient(url);
  expect(Object.hasOwn(client, EXIT)).toBe(true);
  for (let i = 0; i < 3; i++) client.major(`refused ${i}`);
  const started = Date.now();
  const result = await flushWithin(client, 30_000);
  const held = Date.now() - started;
  expect(result?.failed).toBe(3);
  expect(held).toBeLessThan(250); // the first backoff alone is 250 ms or more
  expect(warnings()).toEqual([
    expect.stringMatching(
      new RegExp(
        `^\\[svc\\] 3 report\\(s\\) not delivered before exit: ${url.replace(/\./g, '\\.')}/api/v1/tasks, connection refused; waited \\d+ ms\\.`,
      ),
    ),
  ]);
});

it('a silent service: the exit flushes of every client share the process budget', async () => {
  server().respond(() => ({ delayMs: 60_000 }));
  // Four clients (copies of the package, integrations), one report and one exit flush each.
  const held: number[] = [];
  const lines: string[] = [];
  for (let i = 0; i < 4; i++) {
    const { client, warnings } = denoClient(server().url);
    client.major(`silent ${i}`);
    const started = Date.now();
    expect((await flushWithin(client, 30_000))?.failed).toBe(1);
    held.push(Date.now() - started);
    lines.push(...warnings());
  }
  console.log('held per exit flush (ms):', held);
  expect(held[0]).toBeGreaterThanOrEqual(TIMEOUT_MS); // the first waited for an answer
  expect(held[3]).toBeLessThan(TIMEOUT_MS); // nothing left of the process's budget: no attempt
  expect(lines).toHaveLength(4);
  expect(lines.every((l) => l.includes('1 report(s) not delivered before exit'))).toBe(true);
});

it("Deno's fetch failures get Node's codes (Deno names them only in the cause's message)", () => {
  // The errors Deno 2.9's fetch rejects with (message and cause as it writes them).
  const deno = (said: string) =>
    new TypeError('fetch failed', {
      cause: new Error(
        `error sending request for url (http://127.0.0.1:9/): client error (Connect): ${said}`,
      ),
    });
  const refused = deno('tcp connect error: Connection refused (os error 111)');
  expect(withCode(refused)).toBe(refused);
  expect(refused).toHaveProperty('code', 'ECONNREFUSED');
  const lookup = deno('dns error: failed to lookup address information: Name or service not known');
  expect(withCode(lookup)).toHaveProperty('code', 'ENOTFOUND');
  const reset = deno('connection reset');
  expect(withCode(reset)).not.toHaveProperty('code');
  const frozen = Object.freeze(deno('tcp connect error: Connection refused (os error 111)'));
  expect(withCode(frozen)).toBe(frozen); // never throws
  expect(withCode(undefined)).toBeUndefined();
});
