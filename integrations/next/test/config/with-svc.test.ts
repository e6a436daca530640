import { describe, expect, it } from 'vitest';
import { withSvc } from '../../src/config/with-svc.ts';

describe('withSvc', () => {
  it('adds release and environment to env and leaves everything else as is', () => {
    const webpack = () => ({});
    const config = { reactStrictMode: true, webpack, env: { FOO: 'bar' } };
    const result = withSvc(config, {
      processEnv: { SERVICE_RELEASE: '1.2.3', NODE_ENV: 'production' },
    });
    expect(result).toEqual({
      reactStrictMode: true,
      webpack,
      env: {
        FOO: 'bar',
        NEXT_PUBLIC_SERVICE_RELEASE: '1.2.3',
        NEXT_PUBLIC_SERVICE_ENVIRONMENT: 'production',
      },
      experimental: { serverSourceMaps: true },
    });
    expect(result.webpack).toBe(webpack);
    expect(config.env).toEqual({ FOO: 'bar' }); // input not mutated
  });

  it('takes explicit options first and keeps values the app already set', () => {
    const result = withSvc(
      { env: { NEXT_PUBLIC_SERVICE_ENVIRONMENT: 'staging' } },
      { release: 'r9', environment: 'prod', processEnv: { SERVICE_RELEASE: 'ignored' } },
    );
    expect(result.env).toEqual({
      NEXT_PUBLIC_SERVICE_ENVIRONMENT: 'staging',
      NEXT_PUBLIC_SERVICE_RELEASE: 'r9',
    });
  });

  it('gives the browser the service address: option, else NEXT_PUBLIC_SERVICE_URL, else SERVICE_URL', () => {
    const empty = {} as { env?: Record<string, string> };
    const fromServer = withSvc(empty, { processEnv: { SERVICE_URL: 'http://127.0.0.1:8787' } });
    expect(fromServer.env).toEqual({ NEXT_PUBLIC_SERVICE_URL: 'http://127.0.0.1:8787' });
    const both = withSvc(empty, {
      processEnv: {
        SERVICE_URL: 'http://internal:8787',
        NEXT_PUBLIC_SERVICE_URL: 'https://a.example',
      },
    });
    expect(both.env).toEqual({ NEXT_PUBLIC_SERVICE_URL: 'https://a.example' });
    const option = withSvc(empty, {
      serviceUrl: 'https://b.example',
      processEnv: { SERVICE_URL: 'x' },
    });
    expect(option.env).toEqual({ NEXT_PUBLIC_SERVICE_URL: 'https://b.example' });
  });

  it('hands every public setting to the browser, never a key from a server variable', () => {
    const result = withSvc({} as { env?: Record<string, string> }, {
      processEnv: {
        NEXT_PUBLIC_SERVICE_ENCRYPTION_PUBLIC_KEY: 'cHVi',
        SERVICE_API_KEY: 'svc_pub_server_only',
        SERVICE_ENVIRONMENT: 'staging',
      },
    });
    expect(result.env).toEqual({
      NEXT_PUBLIC_SERVICE_ENCRYPTION_PUBLIC_KEY: 'cHVi',
      NEXT_PUBLIC_SERVICE_ENVIRONMENT: 'staging',
    });
  });

  it('adds nothing it does not know', () => {
    expect(withSvc({}, { processEnv: {} })).toEqual({
      env: {},
      experimental: { serverSourceMaps: true },
    });
  });

  it("turns on webpack's server source maps, keeping the app's own experimental settings", () => {
    const config = { experimental: { taint: true } };
    expect(withSvc(config, { processEnv: {} }).experimental).toEqual({
      taint: true,
      serverSourceMaps: true,
    });
    expect(config.experimental).toEqual({ taint: true }); // input not mutated
    const optedOut = withSvc({ experimental: { serverSourceMaps: false } }, { processEnv: {} });
    expect(optedOut.experimental).toEqual({ serverSourceMaps: false });
  });

  it('wraps the function form of next.config', async () => {
    const wrapped = withSvc(async (phase: string) => ({ distDir: phase }), {
      processEnv: { SERVICE_ENVIRONMENT: 'test' },
    });
    expect(await wrapped('phase-production-build', {})).toEqual({
      distDir: 'phase-production-build',
      env: { NEXT_PUBLIC_SERVICE_ENVIRONMENT: 'test' },
      experimental: { serverSourceMaps: true },
    });
  });

  it('fails the build when the signing secret would reach client code', () => {
    const secret = 'svc_sec_0123456789abcdef';
    expect(() =>
      withSvc({}, { processEnv: { SERVICE_SIGNING_SECRET: secret, NEXT_PUBLIC_X: secret } }),
    ).toThrow(/process\.env\.NEXT_PUBLIC_X/);
    expect(() => withSvc({ env: { SERVICE_SIGNING_SECRET: secret } }, { processEnv: {} })).toThrow(
      /next\.config env\.SERVICE_SIGNING_SECRET/,
    );
  });

  it('never prints the secret in its error', () => {
    const secret = 'svc_sec_do_not_print_me';
    try {
      withSvc({}, { processEnv: { NEXT_PUBLIC_SERVICE_API_KEY: secret } });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain('do_not_print_me');
    }
  });

  it('only warns when failOnSecretLeak is false', () => {
    const result = withSvc({} as { env?: Record<string, string> }, {
      failOnSecretLeak: false,
      processEnv: { NEXT_PUBLIC_SERVICE_SIGNING_SECRET: 'x' },
    });
    expect(result.env).toEqual({});
  });
});
