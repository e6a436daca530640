// Where the settings come from on each runtime, with the runtime's globals handed in as `scope`.
import { describe, expect, it } from 'vitest';
import { processEnvironment, runtimeEnvironment } from '../src/environment.ts';
import { clientConfig } from '../src/options.ts';

describe('runtimeEnvironment', () => {
  it("takes a Worker's string bindings over the process environment, nothing else of them", () => {
    const scope = {
      process: { env: { SERVICE_URL: 'http://from-process', SERVICE_RELEASE: '1' } },
    };
    const env = runtimeEnvironment(
      { SERVICE_URL: 'http://from-binding', COUNTER: { idFromName() {} }, SERVICE_KEY_ID: 7 },
      scope,
    );
    expect(env.SERVICE_URL).toBe('http://from-binding');
    expect(env.SERVICE_RELEASE).toBe('1');
    expect(env.SERVICE_KEY_ID).toBeUndefined();
    expect(env).not.toHaveProperty('COUNTER');
  });

  it("ignores what Bun, Deno and Node's adapter pass as env (a server, connection info)", () => {
    const scope = { process: { env: { SERVICE_URL: 'http://from-process' } } };
    expect(runtimeEnvironment({ port: 3000, fetch() {} }, scope).SERVICE_URL).toBe(
      'http://from-process',
    );
    expect(runtimeEnvironment(undefined, {})).toEqual({});
  });

  it('reads in Deno only the variables it may read without a prompt', () => {
    const asked: string[] = [];
    const deno = {
      env: { get: (name: string) => `value of ${name}` },
      permissions: {
        querySync: ({ variable }: { variable: string }) => {
          asked.push(variable);
          return { state: variable === 'SERVICE_URL' ? 'granted' : 'prompt' };
        },
      },
    };
    expect(processEnvironment({ Deno: deno })).toEqual({ SERVICE_URL: 'value of SERVICE_URL' });
    expect(asked).toContain('SERVICE_SIGNING_SECRET');
  });
});

describe('clientConfig', () => {
  it('explicit options, then the SERVICE_* values, then NODE_ENV; the address apart', () => {
    const env = {
      SERVICE_URL: 'http://127.0.0.1:9',
      SERVICE_KEY_ID: 'svck_x',
      SERVICE_SIGNING_SECRET: 'svc_sec_y',
      SERVICE_RELEASE: '',
      NODE_ENV: 'production',
    };
    expect(clientConfig({ release: '2.0.0', flushTimeoutMs: 10 }, env)).toEqual({
      options: {
        keyId: 'svck_x',
        signingSecret: 'svc_sec_y',
        release: '2.0.0',
        environment: 'production',
      },
      settings: { serviceUrl: 'http://127.0.0.1:9' },
    });
    expect(clientConfig({ serviceUrl: 'http://other' }, env).settings).toEqual({
      serviceUrl: 'http://other',
    });
  });
});
