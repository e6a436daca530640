import { describe, expect, it } from 'vitest';
import { flushWithDeadline, platformWaitUntil, scheduleFlush } from '../../src/server/flush.ts';
import { recordingClient } from '../helpers/recording-client.ts';

const longRunning = { timeoutMs: 100, beforeResponse: false, edge: false };
const frozenAfterResponse = { timeoutMs: 100, beforeResponse: true, edge: false };
const edge = { timeoutMs: 100, beforeResponse: false, edge: true };

describe('scheduleFlush', () => {
  it('prefers the platform waitUntil', async () => {
    const client = recordingClient();
    const waited: Promise<unknown>[] = [];
    const after = () => {
      throw new Error('must not be used');
    };
    const { mode, done } = scheduleFlush(client, longRunning, {
      getWaitUntil: () => (p) => waited.push(p),
      after,
    });
    expect(mode).toBe('waitUntil');
    expect(waited).toEqual([done]);
    await done;
    expect(client.flushes).toBe(1);
  });

  it('in the edge runtime uses after() when there is no waitUntil, flushing when Next runs the task', async () => {
    const client = recordingClient();
    const tasks: (() => Promise<unknown>)[] = [];
    const { mode, done } = scheduleFlush(client, edge, {
      getWaitUntil: () => undefined,
      after: (task) => tasks.push(task),
    });
    expect(mode).toBe('after');
    expect(client.flushes).toBe(0);
    await tasks[0]!();
    await done;
    expect(client.flushes).toBe(1);
  });

  const refusedAfter = () => {
    throw new Error('`after` was called outside a request scope');
  };

  it('on a long-running server leaves delivery to the background queue, after() or not', async () => {
    for (const after of [refusedAfter, () => {}]) {
      const client = recordingClient();
      const { mode, done } = scheduleFlush(client, longRunning, {
        getWaitUntil: () => undefined,
        after,
      });
      expect(mode).toBe('background');
      await done;
      expect(client.flushes).toBe(0);
    }
  });

  it('awaits the flush before the response where the platform freezes after it', async () => {
    const client = recordingClient();
    const { mode, done } = scheduleFlush(client, frozenAfterResponse, {
      getWaitUntil: () => undefined,
      after: refusedAfter,
    });
    expect(mode).toBe('awaited');
    await done;
    expect(client.flushes).toBe(1);
  });
});

describe('flushWithDeadline', () => {
  it('says when the deadline cut the flush short', async () => {
    const logs: string[] = [];
    const result = await flushWithDeadline(recordingClient(5_000), 20, (m) => logs.push(m));
    expect(result).toBeUndefined();
    expect(logs).toEqual(['[svc/next] flush not done within 20 ms']);
  });

  it('returns the flush result and logs nothing when in time', async () => {
    const logs: string[] = [];
    const result = await flushWithDeadline(recordingClient(0), 1_000, (m) => logs.push(m));
    expect(result?.sent).toBe(0);
    expect(logs).toEqual([]);
  });
});

describe('platformWaitUntil', () => {
  it.each(['@next/request-context', '@vercel/request-context'])(
    "reads the platform's %s carrier",
    (name) => {
      const key = Symbol.for(name);
      const g = globalThis as Record<symbol, unknown>;
      expect(platformWaitUntil()).toBeUndefined();
      const waitUntil = () => {};
      g[key] = { get: () => ({ waitUntil }) };
      try {
        expect(platformWaitUntil()).toBe(waitUntil);
      } finally {
        delete g[key];
      }
    },
  );
});
