import { describe, expect, it } from 'vitest';
import { clientOptions, clientSettings } from '../src/options.ts';

describe('clientOptions', () => {
  const env = {
    SERVICE_KEY_ID: 'svck_env',
    SERVICE_SIGNING_SECRET: 'svc_sec_env',
    SERVICE_ENCRYPTION_PUBLIC_KEY: 'pk',
    SERVICE_ENCRYPTION_KEY_ID: 'svcek_1',
    NODE_ENV: 'production',
    SERVICE_RELEASE: '1.2.3',
  };

  it('reads credentials, encryption, environment and release from the environment', () => {
    expect(clientOptions({}, { ...env, SERVICE_API_KEY: 'svc_pub_env' })).toEqual({
      apiKey: 'svc_pub_env',
      keyId: 'svck_env',
      signingSecret: 'svc_sec_env',
      encryptionPublicKey: 'pk',
      encryptionKeyId: 'svcek_1',
      environment: 'production',
      release: '1.2.3',
    });
  });

  it('lets explicit options win and keeps integration-only options out of the client', () => {
    const out = clientOptions(
      { keyId: 'svck_opt', release: 'r2', processHandlers: false, method: 'minor', debug: true },
      env,
    );
    expect(out).toMatchObject({ keyId: 'svck_opt', release: 'r2', debug: true });
    expect(out).not.toHaveProperty('processHandlers');
    expect(out).not.toHaveProperty('method');
  });

  it('takes SERVICE_ENVIRONMENT before NODE_ENV', () => {
    expect(clientOptions({}, { ...env, SERVICE_ENVIRONMENT: 'staging' }).environment).toBe(
      'staging',
    );
  });

  it('treats empty variables as unset', () => {
    expect(clientOptions({}, { SERVICE_KEY_ID: '', NODE_ENV: '' })).toEqual({});
  });
});

describe('clientSettings (the service address, never a client option)', () => {
  it('takes the serviceUrl option, else SERVICE_URL; empty counts as unset', () => {
    const env = { SERVICE_URL: 'http://127.0.0.1:8787' };
    expect(clientSettings({}, env)).toEqual({ serviceUrl: 'http://127.0.0.1:8787' });
    expect(clientSettings({ serviceUrl: 'https://svc.example.com' }, env)).toEqual({
      serviceUrl: 'https://svc.example.com',
    });
    expect(clientSettings({}, { SERVICE_URL: '' })).toEqual({ serviceUrl: undefined });
    expect(clientOptions({ serviceUrl: 'https://svc.example.com' }, {})).toEqual({});
  });
});
