import { describe, expect, it } from 'vitest';
import { startWhenReachable } from '../../src/cli/wait-for-database.ts';

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

function harness() {
  const lines: string[] = [];
  const pauses: number[] = [];
  let clock = 0;
  return {
    lines,
    pauses,
    deps: {
      signal: new AbortController().signal,
      log: (line: string) => lines.push(line),
      sleep: async (ms: number) => {
        pauses.push(ms);
        clock += ms;
      },
      now: () => clock,
    },
  };
}

describe('startWhenReachable', () => {
  it('retries while the database is unreachable, backing off to the cap, one line each way', async () => {
    const { lines, pauses, deps } = harness();
    let attempts = 0;
    const started = await startWhenReachable(
      async () => {
        if (++attempts < 7) throw refused();
        return 'server';
      },
      { ...deps, maxDelayMs: 4000 },
    );
    expect(started).toBe('server');
    expect(pauses).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
    expect(lines).toEqual([
      'svc-server: the database cannot be reached at start-up (connect ECONNREFUSED 127.0.0.1:5432); retrying until it answers (SIGTERM or Ctrl-C stops)',
      'svc-server: the database answered after 7 attempts (16 s)',
    ]);
  });

  it('a database that answers wrongly fails at once', async () => {
    const { lines, deps } = harness();
    const wrongPassword = Object.assign(new Error('password authentication failed'), {
      code: '28P01',
    });
    await expect(startWhenReachable(() => Promise.reject(wrongPassword), deps)).rejects.toBe(
      wrongPassword,
    );
    expect(lines).toEqual([]);
  });

  it('a start that succeeds at once logs nothing', async () => {
    const { lines, pauses, deps } = harness();
    expect(await startWhenReachable(async () => 1, deps)).toBe(1);
    expect([lines, pauses]).toEqual([[], []]);
  });

  it('an abort during the wait resolves undefined without another attempt', async () => {
    const stopping = new AbortController();
    let attempts = 0;
    const started = await startWhenReachable(
      async () => {
        attempts++;
        throw refused();
      },
      {
        signal: stopping.signal,
        log: () => {},
        sleep: (_ms, signal) =>
          new Promise((_, reject) => {
            signal.addEventListener('abort', () => reject(new Error('aborted')));
            stopping.abort();
          }),
      },
    );
    expect([started, attempts]).toEqual([undefined, 1]);
  });
});
