// An unreachable or silent service never holds a process: child processes (the built package) queue
// 10 or 100 reports and exit, through the `beforeExit` hook or an integration's `flushWithin`,
// against a port that refuses, a server that accepts and never answers, and a port where the
// reference service comes up a moment later. Delivery ends within `timeoutMs` + 2 s (a correctness
// bound, measured from the child's `queued` line to its exit), with exactly one warning naming the
// service address when reports are lost, none when the service came back.
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
const BOUND = TIMEOUT_MS + 2000;

describe.each(['beforeExit', 'flushWithin'])('exit through %s', (mode) => {
  it.each([10, 100])('a refused port: %i reports, ends in time, one warning', async (reports) => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const out = await run({
      SERVICE_URL: url,
      MODE: mode,
      REPORTS: String(reports),
      TIMEOUT_MS: String(TIMEOUT_MS),
    });
    console.log(`${mode}, refused, ${reports} reports: exit after ${out.ms} ms`, out.warnings);
    expect(out.code).toBe(0);
    expect(out.ms).toBeLessThan(BOUND);
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings[0]).toContain(`${url}/api/v1/tasks`);
    expect(out.warnings[0]).toContain('connection refused');
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
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings[0]).toContain(`${reports} report(s) not delivered before exit: ${url}`);
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
    // The attempt in flight when the app is done holds the process up to its own timeoutMs; the
    // backoff does not, and the exit flush has its deadline.
    expect(out.ms).toBeLessThan(TIMEOUT_MS + BOUND);
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings[0]).toContain(url);
  },
);

describe('the service comes back while the process exits', () => {
  it.each(['beforeExit', 'flushWithin'])(
    '%s: 100 reports all delivered, no warning',
    async (mode) => {
      // The service is stopped (its port refuses), and restarted on the same port and data 300 ms
      // after the child has queued its reports.
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
      const out = await run(
        {
          SERVICE_URL: first.url,
          SVC_API_KEY: first.keys.apiKey,
          MODE: mode,
          REPORTS: '100',
          TIMEOUT_MS: String(TIMEOUT_MS),
        },
        () => {
          starting = new Promise((r) => setTimeout(r, 300)).then(async () => {
            back = await startTestService({ dataDir, port });
          });
        },
      );
      await starting;
      console.log(`${mode}, service back after 300 ms: exit after ${out.ms} ms`, out.warnings);
      expect(out.code).toBe(0);
      expect(out.ms).toBeLessThan(BOUND);
      expect(out.warnings).toEqual([]);
      const cards = await back!.admin.listCards(first.projectId);
      expect(cards.find((c) => c.title === 'Exit report')?.occurrence_count).toBe(100);
    },
  );
});
