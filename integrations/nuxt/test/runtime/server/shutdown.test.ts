import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { carrier } from '@svc/runtime/kit';
import { flushOnShutdown } from '../../../src/runtime/server/shutdown';

// The deadline itself (flushWithin) is the runtime kit's, tested there.
const forgetInstall = () => delete carrier().nuxtShutdown;

// A stand-in `process` (injected): a real EventEmitter for signals, `kill` recorded. Sending real
// SIGTERM to the test runner would end it; the end-to-end suite sends a real one to Nitro.
function fakeProcess() {
  const emitter = new EventEmitter();
  const kills: string[] = [];
  return Object.assign(emitter, {
    pid: 1234,
    kill: (_pid: number, sig: string) => kills.push(sig),
    kills,
  });
}

function fakeNitro() {
  const hooks: Record<string, () => Promise<void>> = {};
  return {
    hooks: { hook: (name: string, fn: () => Promise<void>) => (hooks[name] = fn) },
    hooks_: hooks,
  };
}

describe('flushOnShutdown', () => {
  it('flushes on Nitro close and on SIGTERM, then re-sends SIGTERM when alone', async () => {
    forgetInstall();
    const flush = vi.fn(async () => ({}) as never);
    const nitro = fakeNitro();
    const proc = fakeProcess();
    flushOnShutdown({ flush }, nitro, 100, proc as never);
    await nitro.hooks_.close!();
    expect(flush).toHaveBeenCalledTimes(1);

    proc.emit('SIGTERM');
    await vi.waitFor(() => expect(proc.kills).toEqual(['SIGTERM']));
    expect(flush).toHaveBeenCalledTimes(2);
  });
  it('leaves termination to another SIGTERM listener (Nitro graceful shutdown)', async () => {
    forgetInstall();
    const flush = vi.fn(async () => ({}) as never);
    const proc = fakeProcess();
    proc.on('SIGTERM', () => {});
    flushOnShutdown({ flush }, fakeNitro(), 100, proc as never);
    proc.emit('SIGTERM');
    await vi.waitFor(() => expect(flush).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(proc.kills).toEqual([]);
  });
  it('installs one SIGTERM listener per process across reloads', () => {
    forgetInstall();
    const proc = fakeProcess();
    const client = { flush: async () => ({}) as never };
    flushOnShutdown(client, fakeNitro(), 100, proc as never);
    flushOnShutdown(client, fakeNitro(), 100, proc as never);
    expect(proc.listenerCount('SIGTERM')).toBe(1);
  });
});
