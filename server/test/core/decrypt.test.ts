import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envelopeOf, openEnvelope } from '../../src/core/decrypt.ts';
import {
  portableSealOpen,
  sealedBoxBackend,
  sealOpen,
  sodiumSealOpen,
} from '../../src/core/sealed-box.ts';

const v = JSON.parse(
  readFileSync(new URL('../../../spec/vectors/sealed-box.json', import.meta.url), 'utf8'),
);
const key = {
  keyId: 'svcek_vector',
  publicKey: new Uint8Array(Buffer.from(v.recipient_public_key_b64, 'base64')),
  privateKey: new Uint8Array(Buffer.from(v.recipient_secret_key_b64, 'base64')),
};
const env = (ciphertext: string, extra = {}) => ({
  v: 1,
  alg: 'x25519-sealedbox',
  ciphertext,
  ...extra,
});

describe('sealed-box vectors (libsodium 1.0.18)', () => {
  for (const c of v.cases) {
    it(`opens ${c.plaintext.slice(0, 40)}`, async () => {
      const opened = await openEnvelope(env(c.ciphertext_b64), () => key);
      expect(opened?.body).toEqual(JSON.parse(c.plaintext));
    });
  }
  it('refuses the tampered ciphertext', async () => {
    expect(await openEnvelope(env(v.tampered_ciphertext_b64), () => key)).toBeUndefined();
  });
  it('refuses a wrong version, algorithm, missing key or non-base64 text', async () => {
    const ct = v.cases[0].ciphertext_b64;
    expect(await openEnvelope(env(ct, { v: 2 }), () => key)).toBeUndefined();
    expect(await openEnvelope(env(ct, { alg: 'aes' }), () => key)).toBeUndefined();
    expect(await openEnvelope(env(ct), () => undefined)).toBeUndefined();
    expect(await openEnvelope(env('%%%'), () => key)).toBeUndefined();
  });
});

describe('envelopeOf (contract 10.2)', () => {
  it('only a top-level encrypted object with a ciphertext string is an envelope', () => {
    expect(envelopeOf({ encrypted: { ciphertext: 'x' } })).toBeDefined();
    expect(envelopeOf({ encrypted: { ciphertext: 1 } })).toBeUndefined();
    expect(envelopeOf({ encrypted: 'x' })).toBeUndefined();
    expect(envelopeOf([{ encrypted: { ciphertext: 'x' } }])).toBeUndefined();
    expect(envelopeOf({ severity: 'major' })).toBeUndefined();
  });
});

// Both implementations, whichever the service picks: libsodium through sodium-native (a pinned
// dependency with prebuilt binaries, so it must load here) and the portable fallback.
const BACKENDS = [
  ['libsodium (sodium-native)', sodiumSealOpen],
  ['portable fallback', portableSealOpen],
] as const;

it('sodium-native loads on this platform and is the one in use', () => {
  expect(sodiumSealOpen).toBeTypeOf('function');
  expect(sealOpen).toBe(sodiumSealOpen);
  expect(sealedBoxBackend).toMatch(/^libsodium/);
});

describe.each(BACKENDS)('sealed boxes opened by %s', (_name, open) => {
  const opener = open!;
  it('opens every spec vector and refuses the tampered one', () => {
    for (const c of v.cases) {
      const plain = opener(
        new Uint8Array(Buffer.from(c.ciphertext_b64, 'base64')),
        key.publicKey,
        key.privateKey,
      );
      expect(Buffer.from(plain!).toString('utf8')).toBe(c.plaintext);
    }
    const tampered = new Uint8Array(Buffer.from(v.tampered_ciphertext_b64, 'base64'));
    expect(opener(tampered, key.publicKey, key.privateKey)).toBeNull();
  });

  it('opens what tweetnacl-sealedbox-js seals, refuses any flipped byte', async () => {
    const { default: sealedbox } = await import('tweetnacl-sealedbox-js');
    const { default: nacl } = await import('tweetnacl');
    for (let i = 0; i < 20; i++) {
      const pair = nacl.box.keyPair();
      const msg = nacl.randomBytes(i * 37);
      const sealed = sealedbox.seal(msg, pair.publicKey);
      expect(opener(sealed, pair.publicKey, pair.secretKey)).toEqual(msg);
      const bad = sealed.slice();
      bad[i % bad.length]! ^= 0x80;
      expect(opener(bad, pair.publicKey, pair.secretKey)).toBeNull();
    }
    expect(opener(new Uint8Array(10), key.publicKey, key.privateKey)).toBeNull();
    expect(opener(new Uint8Array(48), key.publicKey, key.privateKey)).toBeNull();
  });
});
