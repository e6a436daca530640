import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { flushOnShutdown, flushWithin } from '../../../src/runtime/server/shutdown';

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

describe('flushWithin', () => {
  it('resolves when the flush resolves', async () => {
    const flush = vi.fn(async () => ({}) as never);
    await flushWithin({ flush }, 1000);
    expect(flush).toHaveBeenCalledWith({ timeoutMs: 1000 });
  });
  it('gives up at the deadline when the flush hangs, and never rejects', async () => {
    // A hanging flush would hang this test; resolving proves the deadline applies.
    await expect(flushWithin({ flush: () => new Promise(() => {}) }, 50)).resolves.toBe(undefined);
    await expect(flushWithin({ flush: () => Promise.reject(new Error('x')) }, 50)).resolves.toBe(
      undefined,
    );
    await expect(
      flushWithin(
        {
          flush: () => {
            throw new Error('sync');
          },
        },
        50,
      ),
    ).resolves.toBe(undefined);
  });
});

describe('flushOnShutdown', () => {
  it('flushes on Nitro close and on SIGTERM, then re-sends SIGTERM when alone', async () => {
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('svc.nuxt.sigterm')];
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
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('svc.nuxt.sigterm')];
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
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('svc.nuxt.sigterm')];
    const proc = fakeProcess();
    const client = { flush: async () => ({}) as never };
    flushOnShutdown(client, fakeNitro(), 100, proc as never);
    flushOnShutdown(client, fakeNitro(), 100, proc as never);
    expect(proc.listenerCount('SIGTERM')).toBe(1);
  });
});
