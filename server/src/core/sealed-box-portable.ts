import { createPrivateKey, createPublicKey, diffieHellman, type KeyObject } from 'node:crypto';
import { blake2b } from 'blakejs';
import nacl from 'tweetnacl';

// The fallback when sodium-native cannot load (sealed-box.ts): crypto_box_seal_open (libsodium
// sealed boxes) in JavaScript, with the X25519 step done by Node's native
// crypto: tweetnacl's pure-JS scalar multiplication costs milliseconds per report, the native one
// microseconds. The rest is libsodium's construction: nonce = blake2b-192(epk || pk),
// key = HSalsa20(X25519(sk, epk)), then XSalsa20-Poly1305 (nacl.secretbox) over the remainder.

const ZERO16 = new Uint8Array(16);
const SIGMA = new Uint8Array(Buffer.from('expand 32-byte k', 'latin1'));
const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const privateKeys = new Map<string, KeyObject>();
// tweetnacl ships the HSalsa20 core but its typings omit `lowlevel`.
const hsalsa20 = (
  nacl as unknown as {
    lowlevel: {
      crypto_core_hsalsa20(out: Uint8Array, inp: Uint8Array, k: Uint8Array, c: Uint8Array): void;
    };
  }
).lowlevel.crypto_core_hsalsa20;

function privateKeyObject(publicKey: Uint8Array, secretKey: Uint8Array): KeyObject {
  const id = b64url(publicKey);
  let key = privateKeys.get(id);
  if (!key) {
    key = createPrivateKey({
      key: { kty: 'OKP', crv: 'X25519', x: id, d: b64url(secretKey) },
      format: 'jwk',
    });
    privateKeys.set(id, key);
  }
  return key;
}

/** Opens a sealed box; null when it does not authenticate (tampered, wrong key, too short). */
export function portableSealOpen(
  sealed: Uint8Array,
  publicKey: Uint8Array,
  secretKey: Uint8Array,
): Uint8Array | null {
  if (sealed.length < 32 + nacl.secretbox.overheadLength) return null;
  const epk = sealed.subarray(0, 32);
  let shared: Buffer;
  try {
    shared = diffieHellman({
      privateKey: privateKeyObject(publicKey, secretKey),
      publicKey: createPublicKey({
        key: { kty: 'OKP', crv: 'X25519', x: b64url(epk) },
        format: 'jwk',
      }),
    });
  } catch {
    return null; // e.g. a low-order ephemeral key
  }
  const key = new Uint8Array(32);
  hsalsa20(key, ZERO16, new Uint8Array(shared), SIGMA);
  const both = new Uint8Array(64);
  both.set(epk, 0);
  both.set(publicKey, 32);
  const nonce = blake2b(both, undefined, 24);
  return nacl.secretbox.open(sealed.subarray(32), nonce, key);
}
