import { describe, expect, it } from 'vitest';
import { readErrorMapping } from '../../src/inspect/errors.ts';
import { loadSpec } from '../helpers.ts';

describe('readErrorMapping', () => {
  it('reads the section 7 table of the spec in order', async () => {
    const mapping = readErrorMapping(await loadSpec());
    expect(mapping.base.className).toBe('SvcError');
    expect(mapping.rules.map((r) => [r.className, r.match, r.retried])).toEqual([
      [
        'SvcAuthError',
        [
          { kind: 'status', status: 401 },
          { kind: 'status', status: 403 },
        ],
        false,
      ],
      ['SvcValidationError', [{ kind: 'status', status: 422 }], false],
      ['SvcRateLimitError', [{ kind: 'status', status: 429 }], true],
      ['SvcServerError', [{ kind: 'range', min: 400, max: 499 }], false],
      ['SvcServerError', [{ kind: 'range', min: 500, max: 599 }, { kind: 'network' }], true],
    ]);
  });

  it('rejects an unreadable match', () => {
    const doc = {
      'x-svc-error-mapping': { base: { class: 'SvcError' }, rows: [{ match: ['teapot'] }] },
    };
    expect(() => readErrorMapping(doc)).toThrow('cannot read match "teapot"');
  });
});
