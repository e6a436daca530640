import crypto from 'node:crypto';

// `crypto.hash` (Node >= 20.12) is a one-shot digest without a Hash object: noticeably cheaper
// on the ingest hot path than createHash().update().digest().
const oneShot = (
  crypto as { hash?: (alg: string, data: string | Uint8Array, enc: string) => string }
).hash;

export const sha256 = (data: string | Uint8Array): Buffer =>
  crypto.createHash('sha256').update(data).digest();
export const sha256Hex = (data: string | Uint8Array): string =>
  oneShot ? oneShot('sha256', data, 'hex') : crypto.createHash('sha256').update(data).digest('hex');
