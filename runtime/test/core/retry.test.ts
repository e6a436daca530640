// Retry and backoff rules (contract 7 and 8.4) against a real HTTP server, with injected sleep/random.
import { describe, expect, it } from 'vitest';
import { backoffMs } from '../../src/core/retry.ts';
import { isRetryable, parseRetryAfter, RETRY } from '../../src/generated/retry.gen.ts';
import { clientFor, fakeSleep, KEY } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

function scripted(statuses: (number | 'destroy')[], headers: Record<string, string> = {}) {
  server().respond((_req, i) => {
    const s = statuses[Math.min(i, statuses.length - 1)];
    if (s === 'destroy') return { destroy: true };
    return {
      status: s,
      headers,
      body: s < 300 ? { deduplicated: false } : { message: `status ${s}` },
    };
  });
}

describe('isRetryable (the generated rule the transport uses)', () => {
  it('retries 429, 5xx and network failures only', () => {
    expect([undefined, 429, 500, 502, 503, 599].every(isRetryable)).toBe(true);
    expect([200, 201, 301, 400, 401, 403, 404, 409, 413, 422].some(isRetryable)).toBe(false);
  });
});

describe('backoffMs', () => {
  it('is exponential with equal jitter from 500 ms, capped at 30 s', () => {
    expect(backoffMs(0, undefined, () => 0)).toBe(250);
    expect(backoffMs(0, undefined, () => 0.999999)).toBeCloseTo(500, 0);
    expect(backoffMs(1, undefined, () => 0)).toBe(500);
    expect(backoffMs(3, undefined, () => 0.5)).toBe(3000);
    expect(backoffMs(20, undefined, () => 0)).toBe(RETRY.backoffCapMs / 2);
    expect(backoffMs(20, undefined, () => 0.999999)).toBeLessThanOrEqual(RETRY.backoffCapMs);
  });
  it('uses a numeric Retry-After verbatim', () => {
    expect(backoffMs(5, 7, () => 0)).toBe(7000);
    expect(backoffMs(0, 0, () => 0.9)).toBe(0);
  });
});

describe('delivery', () => {
  it('retries 5xx with backoff, then succeeds', async () => {
    scripted([500, 503, 201]);
    const s = fakeSleep();
    const { client } = clientFor(server().url, KEY, { sleep: s.sleep, random: () => 0 });
    client.major('Retry me');
    const r = await client.flush();
    expect(r.sent).toBe(1);
    expect(server().requests).toHaveLength(3);
    expect(s.delays).toEqual([250, 500]);
    // Same bytes on every attempt.
    expect(new Set(server().requests.map((q) => q.raw)).size).toBe(1);
  });

  it('gives up after maxRetries', async () => {
    scripted([500]);
    const s = fakeSleep();
    const { client, log } = clientFor(
      server().url,
      { ...KEY, maxRetries: 2, debug: true },
      { sleep: s.sleep, random: () => 1 },
    );
    client.major('Always failing');
    const r = await client.flush();
    expect(r.failed).toBe(1);
    expect(server().requests).toHaveLength(3);
    expect(s.delays).toEqual([500, 1000]);
    expect(log.lines.some((l) => l.level === 'debug' && l.text.includes('SvcServerError'))).toBe(
      true,
    );
  });

  it('uses Retry-After seconds verbatim on 429', async () => {
    scripted([429, 201], { 'retry-after': '7' });
    const s = fakeSleep();
    const { client } = clientFor(server().url, KEY, { sleep: s.sleep, random: () => 0 });
    client.major('Rate limited');
    expect((await client.flush()).sent).toBe(1);
    expect(s.delays).toEqual([7000]);
  });

  it.each([
    ['empty', ''],
    ['non-numeric', 'soon'],
    ['an HTTP date', 'Wed, 21 Oct 2015 07:28:00 GMT'],
  ])('falls back to backoff when Retry-After is %s', async (_name, value) => {
    scripted([429, 201], { 'retry-after': value });
    const s = fakeSleep();
    const { client } = clientFor(server().url, KEY, { sleep: s.sleep, random: () => 0 });
    client.major('Rate limited');
    expect((await client.flush()).sent).toBe(1);
    expect(s.delays).toEqual([250]);
  });

  it.each([400, 401, 403, 404, 413, 422])('never retries %i', async (status) => {
    scripted([status]);
    const s = fakeSleep();
    const { client } = clientFor(server().url, KEY, { sleep: s.sleep });
    client.major('Client mistake');
    const r = await client.flush();
    expect(r.failed).toBe(1);
    expect(server().requests).toHaveLength(1);
    expect(s.delays).toEqual([]);
  });

  it('retries network errors', async () => {
    scripted(['destroy', 201]);
    const s = fakeSleep();
    const { client } = clientFor(server().url, KEY, { sleep: s.sleep, random: () => 0 });
    client.major('Flaky network');
    expect((await client.flush()).sent).toBe(1);
    expect(server().requests).toHaveLength(2);
  });

  it('retries a timed-out attempt', async () => {
    // The first answer comes long after the timeout; the retry is answered at once, with room to
    // spare on a loaded machine (a 50 ms timeout also timed out the retry there).
    server().respond((_r, i) => (i === 0 ? { delayMs: 3000 } : { status: 201 }));
    const s = fakeSleep();
    const { client, log } = clientFor(
      server().url,
      { ...KEY, timeoutMs: 500, debug: true },
      { sleep: s.sleep },
    );
    client.major('Slow');
    expect((await client.flush()).sent).toBe(1);
    expect(server().requests).toHaveLength(2);
    expect(log.lines.some((l) => l.text.includes('timed out after 500 ms'))).toBe(true);
  });

  it.each(['quota', 'paused', 'archived'] as const)(
    'never retries a 200 dropped (%s)',
    async (reason) => {
      server().respond(() => ({
        status: 200,
        body: { dropped: true, reason, quota_exceeded: true },
      }));
      const s = fakeSleep();
      const { client } = clientFor(server().url, KEY, { sleep: s.sleep });
      client.major('Dropped');
      const r = await client.flush();
      expect(r.dropped[reason]).toBe(1);
      expect(r.sent + r.failed).toBe(0);
      expect(server().requests).toHaveLength(1);
    },
  );

  it('reads an absent deduplicated as false, and counts deduplicated reports', async () => {
    server().respond((_r, i) => ({ status: i ? 200 : 201, body: i ? { deduplicated: true } : {} }));
    const { client } = clientFor(server().url, { ...KEY, concurrency: 1 });
    client.major('Same');
    client.major('Same');
    const r = await client.flush();
    expect(r).toMatchObject({ sent: 1, deduplicated: 1, failed: 0 });
  });
});

it('reads Retry-After as integer seconds only', () => {
  expect(parseRetryAfter(' 12 ')).toBe(12);
  expect(parseRetryAfter('0')).toBe(0);
  for (const v of ['', '  ', 'abc', '1.5', '-3', null, undefined, 'Wed, 21 Oct 2015'])
    expect(parseRetryAfter(v)).toBeUndefined();
});
