import { describe, expect, it } from 'vitest';
import { findSecretLeaks } from '../../src/config/secrets.ts';

describe('findSecretLeaks', () => {
  it('accepts the normal split: secret server-side, publishable key public', () => {
    expect(
      findSecretLeaks({
        SERVICE_KEY_ID: 'svck_1',
        SERVICE_SIGNING_SECRET: 'svc_sec_abcdef0123',
        NEXT_PUBLIC_SERVICE_API_KEY: 'svc_pub_abc',
      }),
    ).toEqual([]);
  });

  it('flags a NEXT_PUBLIC_ variable holding the secret value or a svc_sec_ value', () => {
    const leaks = findSecretLeaks({
      SERVICE_SIGNING_SECRET: 'custom-secret-value',
      NEXT_PUBLIC_COPY: 'custom-secret-value',
      NEXT_PUBLIC_SERVICE_API_KEY: 'svc_sec_wrong_key',
    });
    expect(leaks.map((l) => l.where)).toEqual([
      'process.env.NEXT_PUBLIC_COPY',
      'process.env.NEXT_PUBLIC_SERVICE_API_KEY',
    ]);
  });

  it('flags a signing secret by name, in NEXT_PUBLIC_ or in next.config env', () => {
    const leaks = findSecretLeaks(
      { NEXT_PUBLIC_SERVICE_SIGNING_SECRET: 'x' },
      { SERVICE_SIGNING_SECRET: 'y', OTHER: 'fine' },
    );
    expect(leaks.map((l) => l.where)).toEqual([
      'process.env.NEXT_PUBLIC_SERVICE_SIGNING_SECRET',
      'next.config env.SERVICE_SIGNING_SECRET',
    ]);
  });
});
