// flushWithin (src/kit/flush.ts): the one flush-with-deadline of the integrations.
import { describe, expect, it } from 'vitest';
import type { FlushResult } from '../../src/core/types.ts';
import { flushWithin } from '../../src/kit/flush.ts';

const RESULT = { sent: 1 } as FlushResult;

describe('flushWithin', () => {
  it('resolves with the flush result, passing the deadline to flush()', async () => {
    const seen: unknown[] = [];
    const client = {
      flush: async (opts?: { timeoutMs?: number }) => {
        seen.push(opts);
        return RESULT;
      },
    };
    expect(await flushWithin(client, 500)).toBe(RESULT);
    expect(seen).toEqual([{ timeoutMs: 500 }]);
  });

  it('resolves undefined at the deadline when flush() hangs', async () => {
    const client = { flush: () => new Promise<FlushResult>(() => undefined) };
    const started = Date.now();
    expect(await flushWithin(client, 30)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("uses the client's exit flush (delivery ends by the deadline) when it has one", async () => {
    const calls: unknown[] = [];
    const client = {
      flush: async () => {
        calls.push('flush');
        return RESULT;
      },
      [Symbol.for('svc.exit')]: async (timeoutMs: number) => {
        calls.push(timeoutMs);
        return RESULT;
      },
    };
    expect(await flushWithin(client, 700)).toBe(RESULT);
    expect(calls).toEqual([700]);
  });

  it('never rejects, whether flush() rejects or throws', async () => {
    expect(await flushWithin({ flush: () => Promise.reject(new Error('x')) }, 50)).toBeUndefined();
    const throwing = {
      flush(): Promise<FlushResult> {
        throw new Error('sync');
      },
    };
    expect(await flushWithin(throwing, 50)).toBeUndefined();
  });
});
