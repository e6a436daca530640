import { fileURLToPath } from 'node:url';
import { loadNuxt } from '@nuxt/kit';
import { describe, expect, it } from 'vitest';
import { toRuntimeConfig } from '../src/runtime-config';

// Loads the real built module into a real Nuxt instance (no build) and reads the resolved config.
const EXAMPLE = fileURLToPath(new URL('../../../examples/nuxt/', import.meta.url));

async function resolved(overrides: Record<string, unknown>) {
  const nuxt = await loadNuxt({ cwd: EXAMPLE, dev: false, ready: true, overrides });
  try {
    return {
      runtimeConfig: structuredClone(nuxt.options.runtimeConfig) as any,
      sourcemap: nuxt.options.sourcemap,
      plugins: nuxt.options.plugins.map((p) => String(typeof p === 'string' ? p : p.src)),
      nitroPlugins: nuxt.options.nitro.plugins ?? [],
    };
  } finally {
    await nuxt.close();
  }
}

describe('toRuntimeConfig', () => {
  it('puts secrets in private config and the publishable key in public config', () => {
    const rc = toRuntimeConfig(
      {
        apiKey: 'pub',
        keyId: 'kid',
        signingSecret: 'sec',
        serviceUrl: 'https://svc.example.com',
        sampleRate: 0.5,
      },
      {},
    );
    expect(rc).toMatchObject({ serviceKeyId: 'kid', serviceSigningSecret: 'sec' });
    expect(rc.public).toMatchObject({
      serviceApiKey: 'pub',
      serviceUrl: 'https://svc.example.com',
      serviceEnvironment: '',
      svc: { sampleRate: 0.5, debug: '' },
    });
    expect(rc.public.svc).not.toHaveProperty('serviceUrl');
    expect(JSON.stringify(rc.public)).not.toMatch(/kid|sec/);
  });

  it('takes what the build environment gives the browser: NUXT_PUBLIC_SERVICE_*, and SERVICE_URL, _ENVIRONMENT, _RELEASE', () => {
    const rc = toRuntimeConfig(
      { release: 'given' },
      {
        SERVICE_URL: 'https://svc.example.com',
        SERVICE_RELEASE: 'ignored',
        SERVICE_ENVIRONMENT: 'staging',
        SERVICE_KEY_ID: 'svck_never_baked',
        SERVICE_API_KEY: 'svc_pub_server_only',
      },
    );
    expect(rc.public).toMatchObject({
      serviceUrl: 'https://svc.example.com',
      serviceRelease: 'given',
      serviceEnvironment: 'staging',
      serviceApiKey: '',
    });
    expect(rc.serviceKeyId).toBe('');
  });
});

describe('module setup in a real Nuxt', () => {
  it('merges options into runtime config (user runtimeConfig wins) and adds the plugins', async () => {
    const r = await resolved({
      svc: { keyId: 'svck_mod', signingSecret: 'svc_sec_mod', release: '1.2.3' },
      runtimeConfig: { public: { serviceApiKey: 'svc_pub_user' } },
    });
    expect(r.runtimeConfig.serviceKeyId).toBe('svck_mod');
    expect(r.runtimeConfig.serviceSigningSecret).toBe('svc_sec_mod');
    expect(r.runtimeConfig.public.serviceApiKey).toBe('svc_pub_user');
    expect(r.runtimeConfig.public).toMatchObject({ serviceRelease: '1.2.3' });
    expect(r.runtimeConfig.public.svc.signingSecret).toBeUndefined();
    expect(r.runtimeConfig.public.serviceSigningSecret).toBeUndefined();
    expect(r.plugins.some((p) => /runtime[\\/]plugin\.client/.test(p))).toBe(true);
    expect(r.nitroPlugins.some((p) => /runtime[\\/]server[\\/]plugin/.test(String(p)))).toBe(true);
  });
  it("sourceMaps 'upload': hidden client maps, the build's release on both sides, the mode for the browser", async () => {
    const r = await resolved({ svc: { sourceMaps: 'upload' } });
    expect(r.sourcemap).toMatchObject({ client: 'hidden' });
    expect(r.runtimeConfig.public.serviceRelease).toMatch(/^build-\d{8}T\d{6}Z-[0-9a-z]{6}$/);
    expect(r.runtimeConfig.public.svc.sourceMaps).toBe('upload');
    const own = await resolved({ svc: { sourceMaps: 'upload', release: 'shop@4' } });
    expect(own.runtimeConfig.public.serviceRelease).toBe('shop@4');
  });

  it('sourceMaps on makes client maps hidden; off leaves them alone', async () => {
    expect((await resolved({})).sourcemap).toMatchObject({ client: 'hidden' });
    expect((await resolved({ svc: { sourceMaps: false } })).sourcemap).toMatchObject({
      client: false,
    });
  });
});
