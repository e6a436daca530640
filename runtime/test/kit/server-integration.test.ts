// A server integration's start (SvelteKit's initSvc, React Router's): the client from the options
// and SERVICE_* variables, and the process handlers, with `initShared` and `process` handed in.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ProcessLike } from '../../src/kit/process-like.ts';
import { initServerIntegration } from '../../src/kit/server-integration.ts';
import { createFakeClient } from '../../src/testing/index.ts';

const fakeProcess = () =>
  Object.assign(new EventEmitter(), {
    pid: 1,
    version: 'v24.0.0',
    execArgv: [],
    env: {},
    exit: () => undefined,
    kill: () => undefined,
    stderr: { write: () => undefined },
  }) as unknown as EventEmitter & ProcessLike;

describe('initServerIntegration', () => {
  it('makes the client from the options over SERVICE_*, and installs the process handlers', () => {
    const made: unknown[][] = [];
    const client = createFakeClient();
    const proc = fakeProcess();
    const env = { SERVICE_URL: 'http://127.0.0.1:9', SERVICE_KEY_ID: 'svck_a', NODE_ENV: 'test' };
    const init = (...args: unknown[]) => {
      made.push(args);
      return client;
    };
    expect(
      initServerIntegration(init, 'sveltekit', { release: '3', method: 'minorLow' }, env, proc),
    ).toBe(client);
    expect(made).toEqual([
      [
        { release: '3', keyId: 'svck_a', environment: 'test' },
        { serviceUrl: 'http://127.0.0.1:9' },
      ],
    ]);
    expect(proc.listenerCount('unhandledRejection')).toBe(1);
    expect(proc.listenerCount('uncaughtException')).toBe(1);
  });

  it('processHandlers: false leaves the process alone', () => {
    const proc = fakeProcess();
    initServerIntegration(
      () => createFakeClient(),
      'react-router',
      { processHandlers: false },
      {},
      proc,
    );
    expect(proc.listenerCount('unhandledRejection')).toBe(0);
  });
});
