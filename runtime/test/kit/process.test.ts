// The crash handlers every Node server integration installs (src/kit/process.ts), on an
// EventEmitter standing in for `process`, so exits and signals are observed, not suffered (the
// real processes are in integrations/express/test/e2e/process.test.ts and pack's matrix).
import { EventEmitter } from 'node:events';
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { createFakeClient, type FakeClient } from '../../src/testing/index.ts';
import { installProcessHandlers } from '../../src/kit/process.ts';
import type { ProcessLike } from '../../src/kit/process-like.ts';
import { noteRequestReport, reportedAsCrash } from '../../src/kit/reported.ts';

function fakeProcess(execArgv: string[] = []) {
  const emitter = new EventEmitter() as EventEmitter & ProcessLike & { out: string };
  Object.assign(emitter, {
    pid: 4242,
    version: 'v20.0.0',
    execArgv,
    env: {},
    out: '',
    exit: vi.fn(),
    kill: vi.fn(),
    stderr: { write: (t: string) => (emitter.out += t) },
    getBuiltinModule: (id: string) => (id === 'node:util' ? { inspect } : undefined),
  });
  return emitter;
}

const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));

/** The fake client of @svc/runtime/testing (the core's own payload code), counting flushes. */
function fakeClient() {
  const fake = createFakeClient();
  const counted = Object.assign(fake, { flushCount: 0 });
  const flush = fake.flush.bind(fake);
  counted.flush = (...args: Parameters<typeof flush>) => {
    counted.flushCount++;
    return flush(...args);
  };
  return counted;
}
const titles = (client: FakeClient) => client.reports.map((r) => r.title);

describe('installProcessHandlers', () => {
  it('an uncaught exception nobody else handles: the card, Node printed form, flushed, exit 1', async () => {
    const proc = fakeProcess();
    const client = fakeClient();
    installProcessHandlers(client, { framework: 'next', signals: false }, proc);
    const error = Object.assign(new TypeError('timer failed'), { code: 'E_TIMER' });
    proc.emit('uncaughtException', error, 'uncaughtException');
    await settle();
    expect(client.reports.map((r) => [r.method, r.title, r.tags])).toEqual([
      [
        'criticalHigh',
        'TypeError: timer failed (uncaught exception)',
        ['next', 'server', 'uncaught-exception'],
      ],
    ]);
    // util.inspect's form, as Node prints it: the stack and the error's own properties.
    expect(proc.out).toContain("code: 'E_TIMER'");
    expect(proc.out).toContain('Node.js v20.0.0');
    expect(client.flushCount).toBe(1);
    expect(proc.exit).toHaveBeenCalledWith(1);
  });

  it('a host that keeps running (its own listeners, as Next has): reported, never exited', async () => {
    const proc = fakeProcess();
    const client = fakeClient();
    installProcessHandlers(client, { framework: 'next', signals: false }, proc);
    const logged: unknown[] = [];
    proc.on('uncaughtException', (e) => logged.push(e));
    proc.on('unhandledRejection', (e) => logged.push(e));
    proc.emit('uncaughtException', new Error('thrown from a timer'), 'uncaughtException');
    proc.emit('unhandledRejection', new Error('background job failed'), Promise.resolve());
    await settle();
    expect(titles(client)).toEqual([
      'Error: thrown from a timer (uncaught exception)',
      'Error: background job failed (unhandled rejection)',
    ]);
    expect(client.reports[1]!.tags).toEqual(['next', 'server', 'unhandled-rejection']);
    expect(logged).toHaveLength(2);
    expect(proc.exit).not.toHaveBeenCalled();
    expect(proc.out).toBe('');
  });

  it('rejectionGraceMs: a rejection handled late is not reported; one still unhandled is', async () => {
    const proc = fakeProcess();
    const client = fakeClient();
    installProcessHandlers(client, { framework: 'next', rejectionGraceMs: 40 }, proc);
    proc.on('unhandledRejection', () => undefined); // the host survives rejections
    const late = Promise.resolve('late');
    const never = Promise.resolve('never');
    proc.emit('unhandledRejection', new Error('awaited later'), late);
    proc.emit('unhandledRejection', new Error('nobody awaits it'), never);
    await settle(10);
    proc.emit('rejectionHandled', late);
    expect(titles(client)).toEqual([]);
    await settle(80);
    expect(titles(client)).toEqual(['Error: nobody awaits it (unhandled rejection)']);
  });

  it('rejectionGraceMs: a process ending on its own sends what was waiting', async () => {
    const proc = fakeProcess();
    const client = fakeClient();
    installProcessHandlers(client, { framework: 'next', rejectionGraceMs: 60_000 }, proc);
    proc.on('unhandledRejection', () => undefined);
    proc.emit('unhandledRejection', new Error('left behind'), Promise.resolve());
    proc.emit('beforeExit', 0);
    await settle();
    expect(titles(client)).toEqual(['Error: left behind (unhandled rejection)']);
  });

  it('an error a request hook reported is not reported again as a crash, and the reverse', async () => {
    const proc = fakeProcess();
    const client = fakeClient();
    installProcessHandlers(client, { framework: 'next' }, proc);
    proc.on('unhandledRejection', () => undefined);
    const byRequest = new Error('rendered and rejected');
    noteRequestReport(byRequest);
    proc.emit('unhandledRejection', byRequest, Promise.resolve());
    const crash = new Error('crash first');
    proc.emit('unhandledRejection', crash, Promise.resolve());
    proc.emit('unhandledRejection', crash, Promise.resolve()); // a second derived promise
    await settle();
    expect(titles(client)).toEqual(['Error: crash first (unhandled rejection)']);
    expect(reportedAsCrash(crash)).toBe(true);
    expect(reportedAsCrash(byRequest)).toBe(false);
  });

  it('ignore: a control-flow error is neither reported nor flushed', async () => {
    const proc = fakeProcess();
    const client = fakeClient();
    const ignore = (e: unknown) => (e as Error).message === 'NEXT_REDIRECT';
    installProcessHandlers(client, { framework: 'next', ignore }, proc);
    proc.on('uncaughtException', () => undefined);
    proc.emit('uncaughtException', new Error('NEXT_REDIRECT'), 'uncaughtException');
    await settle();
    expect(client.reports).toEqual([]);
    expect(client.flushCount).toBe(0);
  });

  it('once per process, whoever asks; signals only when asked', () => {
    const proc = fakeProcess();
    const off = installProcessHandlers(fakeClient(), { framework: 'next', signals: false }, proc);
    expect(off).toBeTypeOf('function');
    expect(installProcessHandlers(fakeClient(), { framework: 'express' }, proc)).toBeUndefined();
    expect(proc.listenerCount('uncaughtException')).toBe(1);
    expect(proc.listenerCount('SIGTERM')).toBe(0);
    off!();
    for (const event of [
      'uncaughtException',
      'unhandledRejection',
      'rejectionHandled',
      'beforeExit',
    ])
      expect(proc.listenerCount(event)).toBe(0);
    const again = installProcessHandlers(fakeClient(), { framework: 'express' }, proc);
    expect(proc.listenerCount('SIGTERM')).toBe(1);
    again!();
  });

  it('installs nothing where there is no process (edge runtimes)', () => {
    const none = { env: {} } as unknown as ProcessLike; // Next's edge sandbox: process.env only
    expect(installProcessHandlers(fakeClient(), { framework: 'next' }, none)).toBeUndefined();
  });
});
