import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { sha256, sha256Hex } from './hash.ts';

// Key material. Publishable tokens are stored as sha256 hex (the lookup). Signing secrets are
// 72 characters, longer than HMAC-SHA256's 64-byte block, so HMAC itself keys on sha256(secret):
// storing that hash is enough to verify signatures and the secret is never kept.

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export const PUBLISHABLE_TOKEN = /^svc_pub_[0-9a-f]{48}$/;

export function newPublishableKey() {
  const token = `svc_pub_${hex(24)}`;
  return { token, lookup: sha256Hex(token) };
}

export function newSecretKey() {
  const keyId = `svck_${hex(8)}`;
  const signingSecret = `svc_sec_${hex(32)}`;
  return { keyId, signingSecret, secretHash: sha256(signingSecret) };
}

/** A fresh X25519 keypair, or the pair of an imported secret key (base64, 32 bytes). */
export function newEncryptionKey(privateKeyB64?: string) {
  const pair = privateKeyB64 === undefined ? nacl.box.keyPair() : importSecretKey(privateKeyB64);
  return {
    keyId: `svcek_${hex(8)}`,
    publicKey: Buffer.from(pair.publicKey).toString('base64'),
    privateKey: Buffer.from(pair.secretKey),
  };
}

function importSecretKey(b64: string) {
  const secret = Buffer.from(b64, 'base64');
  if (secret.length !== nacl.box.secretKeyLength || secret.toString('base64') !== b64) {
    throw new RangeError('An imported encryption key must be the base64 of 32 bytes.');
  }
  return nacl.box.keyPair.fromSecretKey(new Uint8Array(secret));
}
