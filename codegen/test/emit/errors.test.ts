// Behaviour of the checked-in errors.gen.ts (the emitted factory and retry rule), per contract section 7.
import { describe, expect, it } from 'vitest';
import {
  errorFromResponse,
  isRetryable,
  parseRetryAfter,
  SvcAuthError,
  SvcError,
  SvcRateLimitError,
  SvcServerError,
  SvcValidationError,
} from '../../../runtime/src/generated/errors.gen.ts';

const headers = (retryAfter: string | null) => ({
  get: (name: string) => (name.toLowerCase() === 'retry-after' ? retryAfter : null),
});

describe('errorFromResponse', () => {
  it.each([
    [401, SvcAuthError, false],
    [403, SvcAuthError, false],
    [422, SvcValidationError, false],
    [429, SvcRateLimitError, true],
    [400, SvcServerError, false],
    [404, SvcServerError, false],
    [500, SvcServerError, true],
    [503, SvcServerError, true],
  ] as const)('%i -> %o, retryable %s', (status, Class, retryable) => {
    const error = errorFromResponse(status, { message: 'nope' });
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(Class.name);
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
    expect(error.message).toBe('nope');
    expect(isRetryable(status)).toBe(retryable);
  });

  it('uses HTTP {status} when the body has no message', () => {
    expect(errorFromResponse(502, '<html>').message).toBe('HTTP 502');
    expect(errorFromResponse(401, { message: '' }).message).toBe('HTTP 401');
    expect(errorFromResponse(500, null).message).toBe('HTTP 500');
  });

  it('carries the errors map of a 422 as fieldErrors, empty for a decryption failure', () => {
    const body = { message: 'invalid', errors: { title: ['too long'], tags: 'bad' } };
    const error = errorFromResponse(422, body) as SvcValidationError;
    expect(error.fieldErrors).toEqual({ title: ['too long'], tags: ['bad'] });
    const decrypt = errorFromResponse(422, { message: 'Could not decrypt the request payload.' });
    expect((decrypt as SvcValidationError).fieldErrors).toEqual({});
  });

  it('parses Retry-After as integer seconds; empty or non-numeric gives undefined', () => {
    expect((errorFromResponse(429, {}, headers('7')) as SvcRateLimitError).retryAfter).toBe(7);
    expect((errorFromResponse(429, {}, headers(' 12 ')) as SvcRateLimitError).retryAfter).toBe(12);
    expect(
      (errorFromResponse(429, {}, headers('')) as SvcRateLimitError).retryAfter,
    ).toBeUndefined();
    expect(
      (errorFromResponse(429, {}, headers('soon')) as SvcRateLimitError).retryAfter,
    ).toBeUndefined();
    expect((errorFromResponse(429, {}) as SvcRateLimitError).retryAfter).toBeUndefined();
    expect(parseRetryAfter('1.5')).toBeUndefined();
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT')).toBeUndefined();
  });
});

describe('error classes', () => {
  it('a network failure (no status) is a retryable SvcServerError with its cause', () => {
    const cause = new TypeError('fetch failed');
    const error = new SvcServerError('network error', { cause });
    expect(error.retryable).toBe(true);
    expect(error.cause).toBe(cause);
    expect(error.status).toBeUndefined();
    expect(isRetryable(undefined)).toBe(true);
  });

  it('constructors take (message, init) and keep explicit names', () => {
    expect(new SvcAuthError('a').retryable).toBe(false);
    expect(new SvcRateLimitError('r', { retryAfter: 3 }).retryAfter).toBe(3);
    expect(new SvcValidationError('v').fieldErrors).toEqual({});
    expect(new SvcError('base').name).toBe('SvcError');
    expect(new SvcServerError('x', { status: 404 }).retryable).toBe(false);
  });
});
