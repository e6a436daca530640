// Payload encryption (contract section 10): an anonymous X25519 sealed box in a JSON envelope.
// This module and tweetnacl-sealedbox-js load lazily, only for clients configured with a key. The
// library (CommonJS) is imported dynamically too: a static import would make esbuild put its
// CommonJS interop helpers in a chunk every page loads at start-up.

type SealFn = (message: Uint8Array, publicKey: Uint8Array) => Uint8Array;

function base64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** A function that turns a JSON body into the envelope text (`key_id` only when configured). */
export async function createSealer(
  publicKey: Uint8Array,
  keyId: string | undefined,
): Promise<(json: string) => string> {
  const mod = (await import('tweetnacl-sealedbox-js')) as unknown as {
    seal?: SealFn;
    default?: { seal?: SealFn };
  };
  const seal = (mod.seal ?? mod.default?.seal) as SealFn;
  const enc = new TextEncoder();
  return (json) =>
    JSON.stringify({
      encrypted: {
        v: 1,
        alg: 'x25519-sealedbox',
        ...(keyId ? { key_id: keyId } : {}),
        ciphertext: base64(seal(enc.encode(json), publicKey)),
      },
    });
}
