import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshotContext } from '../../src/server/outside.ts';
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

describe('snapshotContext', () => {
  it('runs functions in the context it was taken in, whatever context calls it', () => {
    const store = new AsyncLocalStorage<string>();
    const outside = snapshotContext(AsyncLocalStorage);
    const seen = store.run('request', () => [store.getStore(), outside(() => store.getStore())]);
    expect(seen).toEqual(['request', undefined]);
  });

  it('passes through where AsyncLocalStorage.snapshot is missing or fails', () => {
    expect(snapshotContext({})(() => 'x')).toBe('x');
    const broken = {
      snapshot: () => {
        throw new Error('not here');
      },
    };
    expect(snapshotContext(broken)(() => 42)).toBe(42);
  });
});
