import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hmacHex, signedPayload } from '../../src/auth/signature.ts';
import { newSecretKey } from '../../src/core/keys.ts';

const vectors = JSON.parse(
  readFileSync(new URL('../../../spec/vectors/signatures.json', import.meta.url), 'utf8'),
);

describe('signature vectors (spec/vectors/signatures.json)', () => {
  for (const v of vectors.cases) {
    it(v.name, () => {
      const payload = signedPayload(v.timestamp, v.method, Buffer.from(v.body, 'utf8'));
      expect(payload).toBe(v.signed_payload);
      expect(hmacHex(v.signing_secret, payload)).toBe(v.signature);
    });
  }
  it('stripping the svc_sec_ prefix gives the documented wrong signature', () => {
    const v = vectors.cases[0];
    const wrong = hmacHex(v.signing_secret.slice('svc_sec_'.length), v.signed_payload);
    expect(wrong).toBe(vectors.negative.signature_if_prefix_stripped);
    expect(wrong).not.toBe(v.signature);
  });
});

describe('stored secret hash', () => {
  it('verifies like the secret itself, because generated secrets exceed the HMAC block', () => {
    const k = newSecretKey();
    expect(k.signingSecret.length).toBeGreaterThan(64);
    const payload = signedPayload('1750000000', 'post', Buffer.from('{"a":"ü"}'));
    const digest = createHash('sha256').update(k.signingSecret).digest();
    expect(hmacHex(k.secretHash, payload)).toBe(hmacHex(k.signingSecret, payload));
    expect(k.secretHash.equals(digest)).toBe(true);
  });
});
