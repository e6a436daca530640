import { fileURLToPath } from 'node:url';
import { loadNuxt } from '@nuxt/kit';
import { describe, expect, it } from 'vitest';
import { defaults, toRuntimeConfig } from '../src/options';

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
    const rc = toRuntimeConfig({
      ...defaults,
      apiKey: 'pub',
      keyId: 'kid',
      signingSecret: 'sec',
      serviceUrl: 'https://svc.example.com',
    });
    expect(rc).toMatchObject({ serviceKeyId: 'kid', serviceSigningSecret: 'sec' });
    expect(rc.public.serviceApiKey).toBe('pub');
    // The service address is public (the browser posts there), beside the options, not among them.
    expect(rc.public.serviceUrl).toBe('https://svc.example.com');
    expect(rc.public.svc).not.toHaveProperty('serviceUrl');
    expect(JSON.stringify(rc.public)).not.toMatch(/kid|sec/);
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
    expect(r.runtimeConfig.public.svc).toMatchObject({ release: '1.2.3', environment: '' });
    expect(r.runtimeConfig.public.svc.signingSecret).toBeUndefined();
    expect(r.plugins.some((p) => /runtime[\\/]plugin\.client/.test(p))).toBe(true);
    expect(r.nitroPlugins.some((p) => /runtime[\\/]server[\\/]plugin/.test(String(p)))).toBe(true);
  });
  it('sourceMaps on makes client maps hidden; off leaves them alone', async () => {
    expect((await resolved({})).sourcemap).toMatchObject({ client: 'hidden' });
    expect((await resolved({ svc: { sourceMaps: false } })).sourcemap).toMatchObject({
      client: false,
    });
  });
});
