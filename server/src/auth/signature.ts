import { createHmac } from 'node:crypto';
import { sha256Hex } from '../core/hash.ts';
import { TASKS_PATH } from '../generated/service.gen.ts';

/** The path every signature covers, whatever the request's real path or proxy prefix. */
export const SIGNED_PATH = TASKS_PATH;

/**
 * Contract 5.2: `timestamp.METHOD.<path>.sha256_hex(raw body)`, where the path is the endpoint's
 * constant (`TASKS_PATH`, or `SOURCEMAPS_PATH` for an upload), whatever the request's real path.
 */
export function signedPayload(
  timestamp: string,
  method: string,
  rawBody: Uint8Array,
  path: string = SIGNED_PATH,
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
