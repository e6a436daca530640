import { encryptedEnvelopeSchema } from '../generated/schema.gen.ts';
import { sealOpen } from './sealed-box.ts';
import type { EncryptionKeyPair, MaybePromise } from '../domain/types.ts';

export interface Envelope {
  v?: unknown;
  alg?: unknown;
  key_id?: unknown;
  ciphertext: string;
}

/** Contract 10.2: encrypted only with a top-level `encrypted` object holding a `ciphertext` string. */
export function envelopeOf(body: unknown): Envelope | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const enc = (body as { encrypted?: unknown }).encrypted;
  if (typeof enc !== 'object' || enc === null || Array.isArray(enc)) return undefined;
  return typeof (enc as Envelope).ciphertext === 'string' ? (enc as Envelope) : undefined;
}

const ENVELOPE = encryptedEnvelopeSchema.properties.encrypted.properties;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Opens the sealed box; any failure (version, key, base64, tamper, UTF-8, JSON) gives undefined. */
export async function openEnvelope(
  env: Envelope,
  findKey: (keyId?: string) => MaybePromise<EncryptionKeyPair | undefined>,
): Promise<{ body: unknown } | undefined> {
  if (env.v !== ENVELOPE.v.const || env.alg !== ENVELOPE.alg.const) return undefined;
  if (env.key_id !== undefined && typeof env.key_id !== 'string') return undefined;
  if (!BASE64.test(env.ciphertext) || env.ciphertext.length % 4 !== 0) return undefined;
  const key = await findKey(env.key_id as string | undefined);
  if (!key) return undefined;
  const sealed = Buffer.from(env.ciphertext, 'base64');
  let plain: Uint8Array | null;
  try {
    plain = sealOpen(sealed, key.publicKey, key.privateKey);
  } catch {
    return undefined;
  }
  if (!plain) return undefined;
  try {
    return { body: JSON.parse(UTF8.decode(plain)) };
  } catch {
    return undefined;
  }
}
