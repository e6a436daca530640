// Validation of `encryptionPublicKey` (contract 10.2): base64 of exactly 32 bytes.

/** The 32-byte key, or undefined when `value` is not base64 of exactly 32 bytes. */
export function decodePublicKey(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(value.trim())) return undefined;
  return Uint8Array.from(atob(value.trim()), (c) => c.charCodeAt(0));
}
