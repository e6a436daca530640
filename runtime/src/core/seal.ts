// Payload encryption (contract section 10): an anonymous X25519 sealed box in a JSON envelope.
// tweetnacl-sealedbox-js is imported lazily, only by clients configured with a key.

type SealFn = (message: Uint8Array, publicKey: Uint8Array) => Uint8Array;

/** The 32-byte key of a base64 string, or undefined when it is not base64 of exactly 32 bytes. */
export function decodePublicKey(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(value.trim())) return undefined;
  try {
    const bin = atob(value.trim());
    const key = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) key[i] = bin.charCodeAt(i);
    return key.length === 32 ? key : undefined;
  } catch {
    return undefined;
  }
}

function base64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Loads the sealing code once; resolves to a function that turns a JSON body into an envelope. */
export async function loadSealer(
  publicKey: Uint8Array,
  keyId: string | undefined,
): Promise<(json: string) => string> {
  const mod = (await import('tweetnacl-sealedbox-js')) as {
    seal?: SealFn;
    default?: { seal: SealFn };
  };
  const seal = mod.seal ?? mod.default?.seal;
  if (!seal) throw new Error('tweetnacl-sealedbox-js has no seal()');
  const enc = new TextEncoder();
  return (json) => {
    const encrypted: Record<string, unknown> = { v: 1, alg: 'x25519-sealedbox' };
    if (keyId) encrypted.key_id = keyId;
    encrypted.ciphertext = base64(seal(enc.encode(json), publicKey));
    return JSON.stringify({ encrypted });
  };
}
