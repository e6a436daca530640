// withSvc against Next's own config types (next@16.4.5's `NextConfig`), as create-next-app writes
// next.config.ts (`const nextConfig: NextConfig = {...}`) and as Next documents the function form.
// `npm run typecheck` compiles this file: a type that stops matching fails there, and the
// expectTypeOf checks fail here as well.
import type { NextConfig } from 'next';
import { PHASE_PRODUCTION_BUILD } from 'next/constants.js';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { withSvc } from '../../src/config/with-svc.ts';

const processEnv = { SERVICE_RELEASE: 'r1' };

describe('withSvc types', () => {
  it("takes a typed NextConfig (create-next-app's defaults) and gives back a NextConfig", () => {
    const nextConfig: NextConfig = { cacheComponents: true, partialPrefetching: true };
    const wrapped = withSvc(nextConfig, { processEnv });
    expectTypeOf(wrapped).toEqualTypeOf<NextConfig>();
    expect(wrapped).toEqual({
      ...nextConfig,
      env: { NEXT_PUBLIC_SERVICE_RELEASE: 'r1' },
      experimental: { serverSourceMaps: true },
    });
  });

  it('takes an untyped object and keeps its exact type', () => {
    const wrapped = withSvc({ distDir: 'out', reactStrictMode: true }, { processEnv });
    expectTypeOf(wrapped).toEqualTypeOf<{ distDir: string; reactStrictMode: boolean }>();
    expect(wrapped.distDir).toBe('out');
  });

  it("takes Next's function form, sync and async, and gives back one Next accepts", async () => {
    const sync = (
      _phase: string,
      { defaultConfig }: { defaultConfig: NextConfig },
    ): NextConfig => ({
      ...defaultConfig,
      cacheComponents: true,
    });
    const async = async (phase: string): Promise<NextConfig> => ({ distDir: phase });
    const wrappedSync = withSvc(sync, { processEnv });
    const wrappedAsync = withSvc(async, { processEnv });
    expectTypeOf(wrappedSync).toEqualTypeOf<
      (phase: string, ctx: { defaultConfig: NextConfig }) => Promise<NextConfig>
    >();
    // What next.config.ts may export: an object, or (phase, { defaultConfig }) => config | Promise.
    type NextConfigExport =
      | NextConfig
      | ((phase: string, ctx: { defaultConfig: NextConfig }) => NextConfig | Promise<NextConfig>);
    expectTypeOf(wrappedSync).toExtend<NextConfigExport>();
    expectTypeOf(wrappedAsync).toExtend<NextConfigExport>();
    const ctx = { defaultConfig: {} as NextConfig };
    expect((await wrappedSync(PHASE_PRODUCTION_BUILD, ctx)).env).toEqual({
      NEXT_PUBLIC_SERVICE_RELEASE: 'r1',
    });
    expect((await wrappedAsync(PHASE_PRODUCTION_BUILD, ctx)).distDir).toBe(PHASE_PRODUCTION_BUILD);
  });

  it('rejects what is not a config (a type error, checked by the typecheck)', () => {
    // @ts-expect-error a string is not a Next config
    expect(() => withSvc('nope', { processEnv })).not.toThrow();
  });
});
