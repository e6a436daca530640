import { describe, expect, it } from 'vitest';
import { findLeaks, forbiddenValues } from '../src/secrets.ts';

const SECRET = `svc_sec_${'ab12'.repeat(16)}`;

describe('secret detection', () => {
  it('finds a signing secret by its shape', () => {
    expect(findLeaks(`const k="${SECRET}"`, [])).toEqual(['a signing secret (svc_sec_...)']);
  });

  it('ignores the bare prefix (redaction code, docs)', () => {
    expect(findLeaks('/(svc_pub_|svc_sec_|svck_)/g; "svc_sec_..."', [])).toEqual([]);
  });

  it('finds the values of SERVICE_SIGNING_SECRET and SERVICE_KEY_ID, naming only the variable', () => {
    const forbidden = forbiddenValues({
      SERVICE_SIGNING_SECRET: 'custom-secret-value',
      SERVICE_KEY_ID: 'svck_0011223344',
      VITE_SERVICE_API_KEY: 'svc_pub_x',
    });
    expect(forbidden.map((f) => f.label)).toEqual([
      'the value of SERVICE_SIGNING_SECRET',
      'the value of SERVICE_KEY_ID',
    ]);
    expect(findLeaks('a="svck_0011223344";b="custom-secret-value"', forbidden)).toEqual([
      'the value of SERVICE_SIGNING_SECRET',
      'the value of SERVICE_KEY_ID',
    ]);
    expect(findLeaks('nothing here', forbidden)).toEqual([]);
  });

  it('skips values too short to be real keys', () => {
    expect(forbiddenValues({ SERVICE_KEY_ID: 'x' })).toEqual([]);
  });
});
