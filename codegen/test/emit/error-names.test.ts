// The checked-in error-names.gen.ts names the same class, with the same message, as the emitted
// errorFromResponse (errors.gen.ts) for every status, and the network-failure class for `undefined`.
import { expect, it } from 'vitest';
import { errorMessageFor, errorNameFor } from '../../../runtime/src/generated/error-names.gen.ts';
import {
  errorFromResponse,
  isRetryable,
  SvcServerError,
} from '../../../runtime/src/generated/errors.gen.ts';

it('errorNameFor / errorMessageFor agree with errorFromResponse for every status 100..599', () => {
  const bodies = [{ message: 'nope' }, { message: '' }, '<html>', null];
  for (let status = 100; status < 600; status++) {
    for (const body of bodies) {
      const error = errorFromResponse(status, body);
      expect([status, errorNameFor(status), errorMessageFor(status, body)]).toEqual([
        status,
        error.name,
        error.message,
      ]);
    }
  }
  expect(errorNameFor(401)).toBe('SvcAuthError');
});

it('a network failure or timeout is named like the class the runtime retries it as', () => {
  expect(errorNameFor(undefined)).toBe(new SvcServerError('x').name);
  expect(isRetryable(undefined)).toBe(true);
});
