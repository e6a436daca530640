import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import {
  installProcessHandlers,
  rejectionMode,
  type ProcessLike,
} from '../src/process-handlers.ts';
import { recordingClient } from './helpers.ts';

/** An EventEmitter standing in for `process`, so signals and exits can be observed, not suffered. */
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
  });
  return emitter;
}

const settle = () => new Promise((r) => setTimeout(r, 30));

describe('process handlers', () => {
  it('SIGTERM without host listeners: flushes, then re-raises the signal', async () => {
    const proc = fakeProcess();
    const client = recordingClient(10);
    installProcessHandlers(client, {}, proc);
    proc.emit('SIGTERM', 'SIGTERM');
    expect(proc.kill).not.toHaveBeenCalled();
    await settle();
    expect(client.flushes).toBe(1);
    expect(proc.kill).toHaveBeenCalledWith(4242, 'SIGTERM');
    expect(proc.listenerCount('SIGTERM')).toBe(0);
    expect(proc.exit).not.toHaveBeenCalled();
  });

  it('SIGINT with a host listener: flushes and leaves shutdown to the host', async () => {
    const proc = fakeProcess();
    const client = recordingClient();
    const host = vi.fn();
    installProcessHandlers(client, {}, proc);
    proc.on('SIGINT', host);
    proc.emit('SIGINT', 'SIGINT');
    await settle();
    expect(host).toHaveBeenCalled();
    expect(client.flushes).toBe(1);
    expect(proc.kill).not.toHaveBeenCalled();
    expect(proc.exit).not.toHaveBeenCalled();
  });

  it('a flush that hangs is cut at the deadline', async () => {
    const proc = fakeProcess();
    const client = recordingClient(10_000);
    installProcessHandlers(client, { shutdownTimeoutMs: 20 }, proc);
    proc.emit('SIGTERM', 'SIGTERM');
    await new Promise((r) => setTimeout(r, 60));
    expect(proc.kill).toHaveBeenCalledWith(4242, 'SIGTERM');
  });

  it('uncaught exception without host handler: reports, prints, flushes, exits 1', async () => {
    const proc = fakeProcess();
    const client = recordingClient();
    installProcessHandlers(client, {}, proc);
    const err = new TypeError('x is not a function');
    proc.emit('uncaughtException', err, 'uncaughtException');
    expect(client.calls).toEqual([
      {
        method: 'criticalHigh',
        title: 'TypeError: x is not a function (uncaught exception)',
        description: err,
        tags: ['express', 'server', 'uncaught-exception'],
      },
    ]);
    expect(proc.out).toContain('TypeError: x is not a function');
    await settle();
    expect(client.flushes).toBe(1);
    expect(proc.exit).toHaveBeenCalledWith(1);
  });

  it('uncaught exception with a host handler: reports, never exits', async () => {
    const proc = fakeProcess();
    const client = recordingClient();
    installProcessHandlers(client, {}, proc);
    proc.on('uncaughtException', () => {});
    proc.emit('uncaughtException', new Error('e'), 'uncaughtException');
    await settle();
    expect(client.calls).toHaveLength(1);
    expect(proc.exit).not.toHaveBeenCalled();
  });

  it('unhandled rejection, default mode: crashes like Node after flushing', async () => {
    const proc = fakeProcess();
    const client = recordingClient();
    installProcessHandlers(client, {}, proc);
    proc.emit('unhandledRejection', new Error('rejected'), Promise.resolve());
    expect(client.calls[0]!.title).toBe('Error: rejected (unhandled rejection)');
    await settle();
    expect(proc.exit).toHaveBeenCalledWith(1);
  });

  it('unhandled rejection goes to the host uncaughtException handler, reported once', async () => {
    const proc = fakeProcess();
    const client = recordingClient();
    installProcessHandlers(client, {}, proc);
    const host = vi.fn();
    proc.on('uncaughtException', host);
    const err = new Error('r');
    proc.emit('unhandledRejection', err, Promise.resolve());
    expect(host).toHaveBeenCalledWith(err, 'unhandledRejection');
    expect(client.calls).toHaveLength(1);
    await settle();
    expect(proc.exit).not.toHaveBeenCalled();
  });

  it('honours --unhandled-rejections=warn (Node prints its warning itself: Svc adds none)', async () => {
    const proc = fakeProcess(['--unhandled-rejections=warn']);
    const client = recordingClient();
    installProcessHandlers(client, {}, proc);
    proc.emit('unhandledRejection', 'plain reason', Promise.resolve());
    await settle();
    expect(client.calls[0]!.title).toBe('Error: plain reason (unhandled rejection)');
    expect(proc.out).toBe('');
    expect(proc.exit).not.toHaveBeenCalled();
  });

  it('honours --unhandled-rejections=warn-with-error-code (the warning Node no longer prints, exit code 1)', async () => {
    const proc = fakeProcess(['--unhandled-rejections=warn-with-error-code']);
    installProcessHandlers(recordingClient(), {}, proc);
    proc.emit('unhandledRejection', 'plain reason', Promise.resolve());
    await settle();
    expect(proc.out).toContain('UnhandledPromiseRejection');
    expect(proc.exitCode).toBe(1);
    expect(proc.exit).not.toHaveBeenCalled();
  });

  it('reads the mode as Node does: value after = or apart, the command line over NODE_OPTIONS', () => {
    const mode = (execArgv: string[], NODE_OPTIONS?: string) =>
      rejectionMode({ execArgv, env: { NODE_OPTIONS } });
    expect(mode([], '--unhandled-rejections=none')).toBe('none');
    expect(mode(['--unhandled-rejections', 'warn'])).toBe('warn');
    expect(mode([], '--max-old-space-size=100 --unhandled-rejections strict')).toBe('strict');
    expect(mode(['--unhandled-rejections=throw'], '--unhandled-rejections=warn')).toBe('throw');
    expect(mode([])).toBe('throw');
  });

  it('uninstalls cleanly', () => {
    const proc = fakeProcess();
    const off = installProcessHandlers(recordingClient(), {}, proc);
    off();
    for (const e of ['SIGTERM', 'SIGINT', 'uncaughtException', 'unhandledRejection']) {
      expect(proc.listenerCount(e)).toBe(0);
    }
  });
});
