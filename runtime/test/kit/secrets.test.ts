// The one secret guard of the integrations (src/kit/secrets.ts), for every key shape of contract
// 2.5: public shapes pass, secret shapes and known secret values are found, never printed.
import { describe, expect, it } from 'vitest';
import {
  findSecretsInCode,
  findSecretVariables,
  keyShapes,
  knownSecrets,
} from '../../src/kit/secrets.ts';

/** A value of each shape as the service issues it. */
const ISSUED: Record<string, string> = {
  svc_pub_: `svc_pub_${'a1'.repeat(24)}`,
  svck_: `svck_${'0f'.repeat(8)}`,
  svcek_: `svcek_${'c3'.repeat(8)}`,
  svc_sec_: `svc_sec_${'ab12'.repeat(16)}`,
  svc_adm_: `svc_adm_${'9e'.repeat(32)}`,
};

describe('key shapes', () => {
  it("covers the spec's key shapes (publishable key, key id, signing secret, encryption key id) and the admin token", () => {
    expect(
      keyShapes()
        .map((shape) => shape.prefix)
        .sort(),
    ).toEqual(Object.keys(ISSUED).sort());
    expect(
      keyShapes()
        .filter((shape) => shape.secret)
        .map((shape) => shape.prefix),
    ).toEqual(['svc_sec_', 'svc_adm_']);
  });

  it.each(keyShapes().map((shape) => [shape.name, shape.prefix, shape.secret] as const))(
    'in built code: a %s (%s) is found exactly when secret',
    (_name, prefix, secret) => {
      const found = findSecretsInCode(`const key = "${ISSUED[prefix]}";`, []);
      expect(found.length > 0).toBe(secret);
      for (const text of found) expect(text).not.toContain(ISSUED[prefix]!.slice(prefix.length));
    },
  );

  it.each(keyShapes().map((shape) => [shape.name, shape.prefix, shape.secret] as const))(
    'in a public variable: a %s (%s) is found exactly when secret',
    (_name, prefix, secret) => {
      const leaks = findSecretVariables({ PUBLIC_KEY: ISSUED[prefix] }, () => true, []);
      expect(leaks.length > 0).toBe(secret);
      expect(JSON.stringify(leaks)).not.toContain(ISSUED[prefix]!.slice(prefix.length));
    },
  );
});

describe('findSecretsInCode', () => {
  it('ignores the bare prefixes (redaction code, docs) and short look-alikes', () => {
    expect(
      findSecretsInCode('/(svc_pub_|svc_sec_|svck_)/g; "svc_sec_..."; svc_sec_short', []),
    ).toEqual([]);
  });

  it('finds known secret values of any shape, naming only the variable', () => {
    const known = knownSecrets({
      SERVICE_SIGNING_SECRET: 'custom-secret-value',
      VITE_SERVICE_SIGNING_SECRET: 'another-secret-value',
      SERVICE_KEY_ID: 'svck_0011223344',
      SERVICE_API_KEY: 'svc_pub_x',
    });
    expect(known.map((secret) => secret.variable)).toEqual([
      'SERVICE_SIGNING_SECRET',
      'VITE_SERVICE_SIGNING_SECRET',
    ]);
    expect(findSecretsInCode('a="custom-secret-value";b="svck_0011223344"', known)).toEqual([
      'the value of SERVICE_SIGNING_SECRET',
    ]);
  });

  it('skips known values too short to be real secrets', () => {
    expect(knownSecrets({ SERVICE_SIGNING_SECRET: 'short' })).toEqual([]);
  });
});

describe('findSecretVariables', () => {
  const known = knownSecrets({ SERVICE_SIGNING_SECRET: 'custom-secret-value' });
  const isPublic = (name: string) => name.startsWith('NEXT_PUBLIC_');

  it('accepts the normal split: secret server-side, publishable key and key ids public', () => {
    expect(
      findSecretVariables(
        {
          SERVICE_SIGNING_SECRET: 'custom-secret-value',
          NEXT_PUBLIC_SERVICE_API_KEY: ISSUED.svc_pub_,
          NEXT_PUBLIC_KEY_ID: ISSUED.svck_,
          NEXT_PUBLIC_ENCRYPTION_KEY_ID: ISSUED.svcek_,
        },
        isPublic,
        known,
      ),
    ).toEqual([]);
  });

  it('finds a public variable named as the secret, holding a secret shape, or a known secret', () => {
    const leaks = findSecretVariables(
      {
        NEXT_PUBLIC_SERVICE_SIGNING_SECRET: 'x',
        NEXT_PUBLIC_COPY: 'prefix-custom-secret-value',
        NEXT_PUBLIC_SERVICE_API_KEY: 'svc_sec_wrong_key',
      },
      isPublic,
      known,
      (name) => `process.env.${name}`,
    );
    expect(leaks).toEqual([
      {
        where: 'process.env.NEXT_PUBLIC_SERVICE_SIGNING_SECRET',
        what: 'is the signing secret variable',
      },
      { where: 'process.env.NEXT_PUBLIC_COPY', what: 'holds the value of SERVICE_SIGNING_SECRET' },
      {
        where: 'process.env.NEXT_PUBLIC_SERVICE_API_KEY',
        what: 'holds a signing secret (svc_sec_...)',
      },
    ]);
  });
});
