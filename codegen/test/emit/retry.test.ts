// The retry rule module (runtime retry.gen.ts) that the transport imports: its data follow the
// error mapping of contract 7 (first matching row wins) and 8.4's backoff, and it agrees status by
// status with the error classes' reading of the same rows (errors.gen.ts), which carries its own
// so that no start-up chunk loads this module.
import { describe, expect, it } from 'vitest';
import * as errors from '../../../runtime/src/generated/errors.gen.ts';
import { isRetryable, parseRetryAfter, RETRY } from '../../../runtime/src/generated/retry.gen.ts';
import { retriedRanges } from '../../src/emit/retry.ts';
import { inspect } from '../../src/inspect/index.ts';
import { loadFixture, loadSpec } from '../helpers.ts';

describe('retry.gen.ts', () => {
  it('retries 429, 5xx and network failures (contract 7), with 500 ms / 30 s backoff (8.4)', () => {
    expect(RETRY).toEqual({
      statuses: [
        [429, 429],
        [500, 599],
      ],
      network: true,
      backoffBaseMs: 500,
      backoffCapMs: 30000,
    });
  });

  it('agrees with the error classes for every status', () => {
    for (let status = 100; status <= 699; status++)
      expect(isRetryable(status), String(status)).toBe(errors.isRetryable(status));
    expect(isRetryable(undefined)).toBe(errors.isRetryable(undefined));
    for (const value of ['7', ' 12 ', '', 'abc', '1.5', '-3', null, undefined])
      expect(parseRetryAfter(value)).toBe(errors.parseRetryAfter(value));
  });

  it('follows the first matching row: an exact row before a range wins', async () => {
    const model = inspect(await loadSpec());
    const rules = [
      {
        ...model.errors.rules[0]!,
        match: [{ kind: 'status' as const, status: 503 }],
        retried: false,
      },
      ...model.errors.rules,
    ];
    expect(retriedRanges(rules)).toEqual([
      [429, 429],
      [500, 502],
      [504, 599],
    ]);
    expect(retriedRanges(inspect(await loadFixture()).errors.rules).length).toBeGreaterThan(0);
  });
});
