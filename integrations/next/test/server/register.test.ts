import { afterEach, describe, expect, it } from 'vitest';
import { flushesBeforeResponse, withDefaults } from '../../src/server/register.ts';

describe('withDefaults', () => {
  it('lets defined options win and undefined ones keep the default', () => {
    expect(
      withDefaults(
        { release: undefined, environment: 'prod', debug: true },
        { keyId: 'svck_1', release: 'r1', environment: 'dev' },
      ),
    ).toEqual({ keyId: 'svck_1', release: 'r1', environment: 'prod', debug: true });
  });
});

describe('flushesBeforeResponse', () => {
  const lambda = process.env.AWS_LAMBDA_FUNCTION_NAME;
  afterEach(() => {
    if (lambda === undefined) delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    else process.env.AWS_LAMBDA_FUNCTION_NAME = lambda;
  });
  const state = (flushBeforeResponse?: boolean) => ({
    flushTimeoutMs: 2000,
    debug: false,
    flushBeforeResponse,
  });

  it('is off on a long-running server and on under AWS Lambda, which freezes after the response', () => {
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    expect(flushesBeforeResponse(state())).toBe(false);
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'shop-web';
    expect(flushesBeforeResponse(state())).toBe(true);
  });

  it('follows the option when set', () => {
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'shop-web';
    expect(flushesBeforeResponse(state(false))).toBe(false);
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    expect(flushesBeforeResponse(state(true))).toBe(true);
  });
});
