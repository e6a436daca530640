// Validation of `encryptionPublicKey` (contract 10.2): base64 of exactly 32 bytes. Decoding happens
// in the lazy ./secure.ts chunk.

/** True when `value` is base64 of exactly 32 bytes (surrounding whitespace allowed). */
export function isPublicKey(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9+/]{43}=$/.test(value.trim());
}
