import { describe, expect, it } from 'vitest';
import { isControlFlowError, readDigest } from '../../src/shared/control-flow.ts';

function withDigest(message: string, digest: string): Error {
  return Object.assign(new Error(message), { digest });
}

describe('isControlFlowError', () => {
  it.each([
    ['redirect()', withDigest('NEXT_REDIRECT', 'NEXT_REDIRECT;replace;/login;307;')],
    ['notFound()', withDigest('NEXT_HTTP_ERROR_FALLBACK;404', 'NEXT_HTTP_ERROR_FALLBACK;404')],
    ['forbidden()', withDigest('NEXT_HTTP_ERROR_FALLBACK;403', 'NEXT_HTTP_ERROR_FALLBACK;403')],
    ['legacy notFound()', withDigest('NEXT_NOT_FOUND', 'NEXT_NOT_FOUND')],
    ['CSR bail-out', withDigest('Bail out', 'BAILOUT_TO_CLIENT_SIDE_RENDERING')],
    ['dynamic usage', withDigest('Dynamic server usage', 'DYNAMIC_SERVER_USAGE')],
    ['wrapped redirect', new Error('render failed', { cause: new Error('NEXT_REDIRECT') })],
    ['React postpone', { $$typeof: Symbol.for('react.postpone'), message: 'x' }],
  ])('ignores %s', (_name, error) => {
    expect(isControlFlowError(error)).toBe(true);
  });

  it.each([
    ['a plain error', new Error('boom')],
    ['a server error with a hash digest', withDigest('boom', '2338811386')],
    ['a thrown string', 'boom'],
    ['null', null],
    ['an error that mentions a redirect later', new Error('failed after NEXT_REDIRECT')],
  ])('keeps %s', (_name, error) => {
    expect(isControlFlowError(error)).toBe(false);
  });
});

describe('readDigest', () => {
  it('reads a non-empty digest only', () => {
    expect(readDigest(withDigest('x', '123'))).toBe('123');
    expect(readDigest(withDigest('x', ''))).toBeUndefined();
    expect(readDigest('x')).toBeUndefined();
  });
});
