// Credential selection (contract 5.5) and request signing (contract 5.2).
import { TASKS_PATH } from '../generated/service.gen.ts';
import { hmacHex, sha256Hex } from './webcrypto.ts';

export type Credentials =
  { kind: 'bearer'; apiKey: string } | { kind: 'signed'; keyId: string; signingSecret: string };

const s = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * Signed auth wins when `keyId` and `signingSecret` are both set, because the secret never leaves
 * the process; an `apiKey` given as well is ignored with a warning. Returns the warnings to show.
 */
export function pickCredentials(
  apiKey: unknown,
  keyId: unknown,
  signingSecret: unknown,
): { credentials?: Credentials; warnings: string[] } {
  const a = s(apiKey);
  const k = s(keyId);
  const sec = s(signingSecret);
  const warnings: string[] = [];
  if (k && sec) {
    if (a)
      warnings.push(
        'both apiKey and keyId/signingSecret are set: using signed auth, apiKey is ignored',
      );
    return { credentials: { kind: 'signed', keyId: k, signingSecret: sec }, warnings };
  }
  if ((k || sec) && !(k && sec)) warnings.push('keyId and signingSecret must be set together');
  if (a) return { credentials: { kind: 'bearer', apiKey: a }, warnings };
  warnings.push(
    'no credentials (apiKey, or keyId + signingSecret): the client is disabled and sends nothing',
  );
  return { warnings };
}

/** The contract 5.2 headers for `body` (the exact bytes sent), at `nowMs`. */
export async function signHeaders(
  keyId: string,
  signingSecret: string,
  body: Uint8Array,
  nowMs: number,
  method = 'POST',
): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const payload = `${timestamp}.${method.toUpperCase()}.${TASKS_PATH}.${await sha256Hex(body)}`;
  return {
    'X-Svc-Key-Id': keyId,
    'X-Svc-Timestamp': timestamp,
    'X-Svc-Signature': await hmacHex(signingSecret, payload),
  };
}
