import { carrier } from '@svc/runtime/kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  flushesBeforeResponse,
  registerSvc,
  serverClientOptions,
} from '../../src/server/register.ts';

describe('serverClientOptions', () => {
  const env = {
    SERVICE_URL: 'http://127.0.0.1:8787',
    SERVICE_KEY_ID: 'svck_1',
    SERVICE_SIGNING_SECRET: 'svc_sec_2',
    SERVICE_RELEASE: 'r1',
    NODE_ENV: 'production',
    NEXT_PUBLIC_SERVICE_RELEASE: 'not read on the server',
  };

  it('reads the SERVICE_ variables every server side reads, NODE_ENV as the environment', () => {
    expect(serverClientOptions({}, env)).toEqual({
      options: {
        keyId: 'svck_1',
        signingSecret: 'svc_sec_2',
        release: 'r1',
        environment: 'production',
      },
      serviceUrl: 'http://127.0.0.1:8787',
    });
    expect(
      serverClientOptions({}, { ...env, SERVICE_ENVIRONMENT: 'staging' }).options.environment,
    ).toBe('staging');
  });

  it('falls back to the values of the build where a SERVICE_ variable is unset at run time', () => {
    const fromBuild = { release: 'built', environment: 'preview', serviceUrl: 'https://b.example' };
    expect(serverClientOptions({ fromBuild }, { SERVICE_RELEASE: 'run' })).toEqual({
      options: { release: 'run', environment: 'preview' },
      serviceUrl: 'https://b.example',
    });
  });

  it('lets defined options win and undefined ones keep the variable', () => {
    expect(
      serverClientOptions(
        { release: undefined, environment: 'prod', debug: true, serviceUrl: 'https://a.example' },
        env,
      ),
    ).toEqual({
      options: {
        keyId: 'svck_1',
        signingSecret: 'svc_sec_2',
        release: 'r1',
        environment: 'prod',
        debug: true,
      },
      serviceUrl: 'https://a.example',
    });
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

describe('registerSvc: the crash handlers', () => {
  const EVENTS = ['uncaughtException', 'unhandledRejection', 'rejectionHandled', 'beforeExit'];
  const runtime = process.env.NEXT_RUNTIME;

  /** Runs `register` on this (real) process; returns the listeners it added, then removes them. */
  const added = (register: () => void) => {
    const before = EVENTS.map((event) => process.listeners(event as 'beforeExit'));
    register();
    const fresh = EVENTS.map((event, i) =>
      process.listeners(event as 'beforeExit').filter((l) => !before[i]!.includes(l)),
    );
    EVENTS.forEach((event, i) => {
      for (const listener of fresh[i]!) process.removeListener(event, listener);
    });
    delete carrier().processHandlers; // the kit's once-per-process mark
    return Object.fromEntries(EVENTS.map((event, i) => [event, fresh[i]!.length]));
  };

  afterEach(() => {
    if (runtime === undefined) delete process.env.NEXT_RUNTIME;
    else process.env.NEXT_RUNTIME = runtime;
  });

  it('installs them once in the Node.js runtime, never the signals (Next handles those)', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined); // no credentials here
    process.env.NEXT_RUNTIME = 'nodejs';
    const signals = process.listenerCount('SIGTERM');
    expect(
      added(() => {
        registerSvc();
        registerSvc();
      }),
    ).toEqual({ uncaughtException: 1, unhandledRejection: 1, rejectionHandled: 1, beforeExit: 1 });
    expect(process.listenerCount('SIGTERM')).toBe(signals);
  });

  it('not in the edge runtime, nor with processHandlers: false', () => {
    process.env.NEXT_RUNTIME = 'edge';
    const none = {
      uncaughtException: 0,
      unhandledRejection: 0,
      rejectionHandled: 0,
      beforeExit: 0,
    };
    expect(added(() => registerSvc())).toEqual(none);
    process.env.NEXT_RUNTIME = 'nodejs';
    expect(added(() => registerSvc({ processHandlers: false }))).toEqual(none);
  });
});
