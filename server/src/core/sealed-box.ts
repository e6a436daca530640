import { createRequire } from 'node:module';
import { portableSealOpen } from './sealed-box-portable.ts';

// Sealed boxes (contract 10.2) are opened by libsodium's own crypto_box_seal_open through
// sodium-native (prebuilt binaries). When the native module cannot load on a platform, the
// portable implementation takes over (native X25519 from node:crypto, the rest in JavaScript).

/** Opens a sealed box; null when it does not authenticate (tampered, wrong key, too short). */
export type SealOpen = (
  sealed: Uint8Array,
  publicKey: Uint8Array,
  secretKey: Uint8Array,
) => Uint8Array | null;

interface SodiumNative {
  crypto_box_SEALBYTES: number;
  crypto_box_seal_open(m: Uint8Array, c: Uint8Array, pk: Uint8Array, sk: Uint8Array): boolean;
}

function loadSodium(): SodiumNative | undefined {
  try {
    return createRequire(import.meta.url)('sodium-native') as SodiumNative;
  } catch {
    return undefined;
  }
}

/** libsodium's crypto_box_seal_open, or undefined when sodium-native cannot load here. */
export const sodiumSealOpen: SealOpen | undefined = ((sodium) => {
  if (!sodium) return undefined;
  const overhead = sodium.crypto_box_SEALBYTES;
  return (sealed, publicKey, secretKey) => {
    if (sealed.length < overhead || publicKey.length !== 32 || secretKey.length !== 32) return null;
    const plain = new Uint8Array(sealed.length - overhead);
    return sodium.crypto_box_seal_open(plain, sealed, publicKey, secretKey) ? plain : null;
  };
})(loadSodium());

export { portableSealOpen };

/** The implementation in use, named for the start-up log line. */
export const sealedBoxBackend = sodiumSealOpen
  ? 'libsodium (sodium-native)'
  : 'portable fallback (node:crypto X25519 + tweetnacl; sodium-native did not load)';

export const sealOpen: SealOpen = sodiumSealOpen ?? portableSealOpen;
