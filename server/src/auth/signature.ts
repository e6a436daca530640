import { createHmac } from 'node:crypto';
import { sha256Hex } from '../core/hash.ts';
import { TASKS_PATH } from '../generated/service.gen.ts';

/** The path every signature covers, whatever the request's real path or proxy prefix. */
export const SIGNED_PATH = TASKS_PATH;

/** Contract 5.2: `timestamp.METHOD.<TASKS_PATH>.sha256_hex(raw body)`. */
export function signedPayload(timestamp: string, method: string, rawBody: Uint8Array): string {
  return signaturePayload(timestamp, method, SIGNED_PATH, rawBody);
}

/** Contract 5.2's payload over any constant path (alerts sign theirs with `ALERT_DELIVERY`'s). */
export function signaturePayload(
  timestamp: string,
  method: string,
  path: string,
  rawBody: Uint8Array | string,
): string {
  return `${timestamp}.${method.toUpperCase()}.${path}.${sha256Hex(rawBody)}`;
}

/**
 * HMAC-SHA256 hex. `key` is the signing secret, or sha256(secret) for secrets longer than the
 * 64-byte HMAC block (HMAC hashes such keys first, so both give the same digest).
 */
export function hmacHex(key: string | Uint8Array, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('hex');
}
