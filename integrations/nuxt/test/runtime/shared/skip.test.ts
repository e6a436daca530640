import { createError as createH3Error, type H3Error } from 'h3';
import { describe, expect, it } from 'vitest';
import {
  isH3Error,
  isNuxtError,
  shouldReportClientError,
  shouldReportServerError,
  statusOf,
  unwrapError,
} from '../../../src/runtime/shared/skip';

// Nuxt's own `createError` lives in `nuxt/dist/app`, which needs a built Nuxt app (`#build`) to
// import. This makes a NuxtError exactly as it does: an h3 error flagged `__nuxt_error`, with the
// `status` alias. The end-to-end suite covers real NuxtErrors thrown in a built app.
function nuxtError(statusCode: number): H3Error {
  const error = createH3Error({ statusCode, message: `status ${statusCode}` });
  Object.defineProperty(error, '__nuxt_error', { value: true });
  Object.defineProperty(error, 'status', { get: () => error.statusCode });
  return error;
}

describe('client rule: skip NuxtError 300-499', () => {
  it.each([300, 301, 302, 400, 401, 403, 404, 422, 499])('skips NuxtError %i', (status) => {
    expect(shouldReportClientError(nuxtError(status))).toBe(false);
  });
  it.each([200, 299, 500, 503])('reports NuxtError %i', (status) => {
    expect(shouldReportClientError(nuxtError(status))).toBe(true);
  });
  it('reports plain errors and non-errors, even with a 404-like status field', () => {
    expect(shouldReportClientError(new TypeError('x'))).toBe(true);
    expect(shouldReportClientError(Object.assign(new Error('x'), { statusCode: 404 }))).toBe(true);
    expect(shouldReportClientError('a string')).toBe(true);
    expect(shouldReportClientError(undefined)).toBe(true);
  });
});

describe('server rule: skip H3Error 3xx/4xx', () => {
  it.each([300, 302, 304, 400, 401, 404, 405, 429, 499])('skips H3Error %i', (status) => {
    expect(shouldReportServerError(createH3Error({ statusCode: status }))).toBe(false);
  });
  it.each([500, 502, 503])('reports H3Error %i', (status) => {
    expect(shouldReportServerError(createH3Error({ statusCode: status }))).toBe(true);
  });
  it('applies to NuxtError too (it is an H3Error)', () => {
    expect(shouldReportServerError(nuxtError(404))).toBe(false);
    expect(shouldReportServerError(nuxtError(500))).toBe(true);
  });
  it('reports a plain thrown error that h3 wrapped into a 500', () => {
    const wrapped = createH3Error(new RangeError('boom'));
    expect(wrapped.statusCode).toBe(500);
    expect(shouldReportServerError(wrapped)).toBe(true);
    expect(shouldReportServerError(new Error('plain'))).toBe(true);
  });
});

describe('helpers', () => {
  it('detects the classes and the status', () => {
    expect(isH3Error(createH3Error({ statusCode: 400 }))).toBe(true);
    expect(isH3Error(new Error('x'))).toBe(false);
    expect(isNuxtError(nuxtError(400))).toBe(true);
    expect(isNuxtError(createH3Error({ statusCode: 400 }))).toBe(false);
    expect(statusOf(nuxtError(418))).toBe(418);
    expect(statusOf({ status: 409 })).toBe(409);
    expect(statusOf(null)).toBeUndefined();
  });
  it('unwraps the original error from an h3 wrapper, and leaves others alone', () => {
    const original = new RangeError('boom');
    expect(unwrapError(createH3Error(original))).toBe(original);
    const deliberate = createH3Error({ statusCode: 500, message: 'deliberate' });
    expect(unwrapError(deliberate)).toBe(deliberate);
    expect(unwrapError(original)).toBe(original);
  });
});
