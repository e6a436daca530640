// An unreachable or silent service never holds a process for more than its exit budget: child
// processes (the built package) queue 10 or 100 reports and exit, through the `beforeExit` hook or
// an integration's `flushWithin` (once, or at several flush events), against a port that refuses,
// a server that accepts and never answers, and the reference service stopped and started again.
// A refused service at exit is not retried (no backoff); a silent one holds the process at most
// `timeoutMs` + 1 s in all, however many flush events there are (correctness bounds, measured
// from the child's `queued` line to its exit); exactly one warning names the address, the true
// count and the time waited, none when everything arrived.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startTestService, type TestService } from '@svc/server/testing';
import { freePort } from '@svc/testkit';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../fixtures/queue-and-exit.mjs', import.meta.url));
const KEY = 'svc_pub_0123456789abcdef0123456789abcdef0123456789abcdef';
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** Accepts connections and never answers (until closed). */
async function silentServer(): Promise<string> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => {
    for (const s of sockets) s.destroy();
    return new Promise((r) => server.close(r));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Run {
  /** From the child's `queued` line to its exit. */
  ms: number;
  code: number | null;
  stdout: string;
  warnings: string[];
}

function run(env: Record<string, string>, onQueued?: () => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT], {
      env: { ...process.env, SVC_API_KEY: KEY, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let queuedAt = 0;
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /queued (\d+)/.exec(stdout);
      if (m && !queuedAt) {
        queuedAt = Number(m[1]);
        onQueued?.();
      }
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    // A child that hangs fails the bound; it must not outlive the test.
    const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(kill);
      const ms = Date.now() - queuedAt;
      const warnings = stderr.split('\n').filter((l) => l.startsWith('[svc]'));
      resolve({ ms, code, stdout, warnings });
    });
  });
}

const TIMEOUT_MS = 1000;
/** The exit budget: one attempt's `timeoutMs`, a second for the warning and the exit itself. */
const BOUND = TIMEOUT_MS + 1000;

/** The one warning's count and waited time: `N report(s) not delivered before exit: ...; waited M ms`. */
function exitWarning(out: Run): { count: number; waitedMs: number; text: string } {
  expect(out.warnings).toHaveLength(1);
  const text = out.warnings[0]!;
  const m = /^\[svc\] (\d+) report\(s\) not delivered before exit: .*; waited (\d+) ms\./.exec(
    text,
  );
  expect(m, text).not.toBeNull();
  return { count: Number(m![1]), waitedMs: Number(m![2]), text };
}

describe.each(['beforeExit', 'flushWithin'])('exit through %s', (mode) => {
  it.each([10, 100])('a refused port: %i reports, no backoff, one warning', async (reports) => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const out = await run({
      SERVICE_URL: url,
      MODE: mode,
      REPORTS: String(reports),
      TIMEOUT_MS: String(TIMEOUT_MS),
    });
    console.log(`${mode}, refused, ${reports} reports: exit after ${out.ms} ms`, out.warnings);
    expect(out.code).toBe(0);
    // No backoff sleeps at exit: the first retry alone would wait 250 ms or more.
    expect(out.ms).toBeLessThan(TIMEOUT_MS);
    const warning = exitWarning(out);
    expect(warning.count).toBe(reports);
    expect(warning.waitedMs).toBeLessThanOrEqual(out.ms);
    expect(warning.text).toContain(`${url}/api/v1/tasks, connection refused`);
  });

  it.each([10, 100])('a silent server: %i reports, ends in time, one warning', async (reports) => {
    const url = await silentServer();
    const out = await run({
      SERVICE_URL: url,
      MODE: mode,
      REPORTS: String(reports),
      TIMEOUT_MS: String(TIMEOUT_MS),
    });
    console.log(`${mode}, silent, ${reports} reports: exit after ${out.ms} ms`, out.warnings);
    expect(out.code).toBe(0);
    expect(out.ms).toBeLessThan(BOUND);
    expect(out.ms).toBeGreaterThanOrEqual(TIMEOUT_MS); // it did wait for an answer
    const warning = exitWarning(out);
    expect(warning.count).toBe(reports);
    expect(warning.waitedMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(warning.waitedMs).toBeLessThanOrEqual(out.ms);
    expect(warning.text).toContain(`${url}/api/v1/tasks, no answer in time`);
  });
});

it.each([
  ['a refused port', () => freePort().then((port) => `http://127.0.0.1:${port}`)],
  ['a silent server', silentServer],
])(
  '%s met before the process ends (in backoff, or waiting): still ends in time',
  async (_name, address) => {
    const url = await address();
    const out = await run({
      SERVICE_URL: url,
      MODE: 'beforeExit',
      REPORTS: '10',
      TIMEOUT_MS: String(TIMEOUT_MS),
      FLUSH_INTERVAL_MS: '0',
    });
    console.log(`beforeExit, ${_name}, delivery under way: exit after ${out.ms} ms`, out.warnings);
    expect(out.code).toBe(0);
    // The attempt under way does not hold the process (its socket is unref'd); the exit flush
    // takes it over within the budget.
    expect(out.ms).toBeLessThan(BOUND);
    expect(exitWarning(out).count).toBe(10);
  },
);

it('a silent server at five flush events: the process is held timeoutMs + 1 s in all', async () => {
  const url = await silentServer();
  const out = await run({
    SERVICE_URL: url,
    MODE: 'flushWithin',
    FLUSHES: '5',
    REPORTS: '4',
    TIMEOUT_MS: String(TIMEOUT_MS),
  });
  console.log(`flushWithin x5, silent: exit after ${out.ms} ms`, out.warnings, out.stdout);
  expect(out.code).toBe(0);
  expect(out.ms).toBeLessThan(BOUND); // not 5 x timeoutMs
  // Each flush event gave up its own reports; the first one warned, once its attempts timed out.
  const failed = [...out.stdout.matchAll(/"failed":(\d+)/g)].map((m) => Number(m[1]));
  expect(failed).toEqual([4, 4, 4, 4, 4]);
  expect(out.warnings.length).toBeGreaterThanOrEqual(1);
  const counts = out.warnings.map((w) => Number(/\] (\d+) report/.exec(w)?.[1]));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(20); // every report counted, none twice
});

describe('a stopped service', () => {
  /** The reference service on a port, stopped: `start()` brings it back on the same port and data. */
  async function stoppedService() {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-exit-'));
    const first = await startTestService({ dataDir });
    const port = Number(new URL(first.url).port);
    await first.close();
    let back: TestService | undefined;
    let starting: Promise<void> | undefined;
    closers.push(async () => {
      await starting;
      await back?.close();
      await rm(dataDir, { recursive: true, force: true });
    });
    return {
      first,
      start: (afterMs: number) => {
        starting = new Promise((r) => setTimeout(r, afterMs)).then(async () => {
          back = await startTestService({ dataDir, port });
        });
      },
      back: async () => {
        await starting;
        return back!;
      },
    };
  }

  it.each(['beforeExit', 'flushWithin'])(
    '%s: back before the app is done: 100 reports all delivered, no warning',
    async (mode) => {
      const service = await stoppedService();
      const out = await run(
        {
          SERVICE_URL: service.first.url,
          SVC_API_KEY: service.first.keys.apiKey,
          MODE: mode,
          REPORTS: '100',
          TIMEOUT_MS: String(TIMEOUT_MS),
          FLUSH_INTERVAL_MS: '0',
          STAY_MS: '2500',
        },
        () => service.start(300),
      );
      const back = await service.back();
      console.log(`${mode}, service back after 300 ms: exit after ${out.ms} ms`, out.warnings);
      expect(out.code).toBe(0);
      expect(out.warnings).toEqual([]);
      const cards = await back.admin.listCards(service.first.projectId);
      expect(cards.find((c) => c.title === 'Exit report')?.occurrence_count).toBe(100);
    },
  );

  it('still stopped at exit: refused, given up at once, one warning with the true count', async () => {
    const service = await stoppedService();
    const out = await run({
      SERVICE_URL: service.first.url,
      SVC_API_KEY: service.first.keys.apiKey,
      MODE: 'flushWithin',
      REPORTS: '100',
      TIMEOUT_MS: String(TIMEOUT_MS),
    });
    expect(out.code).toBe(0);
    expect(out.ms).toBeLessThan(TIMEOUT_MS);
    expect(exitWarning(out).count).toBe(100);
  });
});
