// Payload encryption (contract section 10): an anonymous sealed box (libsodium's
// `crypto_box_seal`) in a JSON envelope, built from audited ESM primitives (@noble: X25519,
// HSalsa20 + XSalsa20-Poly1305, BLAKE2b). This module loads lazily, only for clients configured
// with a key. ESM on purpose: any CommonJS module in the browser graph makes esbuild put its
// interop helpers in a chunk every page loads at start-up.
import { hsalsa, xsalsa20poly1305 } from '@noble/ciphers/salsa.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { blake2b } from '@noble/hashes/blake2.js';

/** "expand 32-byte k" as little-endian words: the Salsa20 constant of `crypto_box_beforenm`. */
const SIGMA = new Uint32Array([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);

const concat = (a: Uint8Array, b: Uint8Array) => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

/**
 * `crypto_box_seal(message, recipient)`: a fresh ephemeral X25519 key per message; nonce =
 * BLAKE2b-192(ephemeral public key || recipient key); key = HSalsa20(X25519 shared secret, 0);
 * output = ephemeral public key || XSalsa20-Poly1305 box (tag first).
 */
export function sealBox(message: Uint8Array, recipient: Uint8Array): Uint8Array {
  const ephemeralSecret = x25519.utils.randomSecretKey();
  const ephemeral = x25519.getPublicKey(ephemeralSecret);
  const nonce = blake2b(concat(ephemeral, recipient), { dkLen: 24 });
  const shared = Uint8Array.from(x25519.getSharedSecret(ephemeralSecret, recipient));
  const key = new Uint32Array(8);
  hsalsa(SIGMA, new Uint32Array(shared.buffer), new Uint32Array(4), key);
  const box = xsalsa20poly1305(new Uint8Array(key.buffer), nonce).encrypt(message);
  ephemeralSecret.fill(0);
  shared.fill(0);
  key.fill(0);
  return concat(ephemeral, box);
}

function base64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** A function that turns a JSON body into the envelope text (`key_id` only when configured). */
export function createSealer(
  publicKey: Uint8Array,
  keyId: string | undefined,
): (json: string) => string {
  const enc = new TextEncoder();
  return (json) =>
    JSON.stringify({
      encrypted: {
        v: 1,
        alg: 'x25519-sealedbox',
        ...(keyId ? { key_id: keyId } : {}),
        ciphertext: base64(sealBox(enc.encode(json), publicKey)),
      },
    });
}
