import { randomBytes } from 'node:crypto';
import { hmacHex, signaturePayload } from '../auth/signature.ts';
import { sha256 } from '../core/hash.ts';
import { ALERT_DELIVERY } from '../generated/service.gen.ts';
import type { DueDelivery } from './types.ts';

// Webhook secrets are the spec's prefix and 64 hex characters: 74 characters, longer than
// HMAC-SHA256's 64-byte block, so HMAC keys on sha256(secret) itself. The service keeps only that
// hash (as it keeps signing secrets) and signs with it; a receiver signs with the secret as shown,
// and both give the same digest.

/** A new webhook secret (shown once) and the hash the store keeps. */
export function newWebhookSecret(): { secret: string; secretHash: Buffer } {
  const secret = `${ALERT_DELIVERY.secretPrefix}${randomBytes(32).toString('hex')}`;
  return { secret, secretHash: sha256(secret) };
}

/**
 * The headers of one attempt: what fired and the delivery's id (the same on every retry), and for
 * a signed webhook contract 5.2's signature over the constant path, with a fresh timestamp.
 */
export function alertHeaders(
  delivery: Pick<DueDelivery, 'id' | 'event' | 'body' | 'secretHash'>,
  nowMs: number,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'svc-server (alerts)',
    'x-svc-delivery': String(delivery.id),
    'x-svc-event': delivery.event,
  };
  if (delivery.secretHash) {
    const timestamp = String(Math.floor(nowMs / 1000));
    const payload = signaturePayload(timestamp, 'POST', ALERT_DELIVERY.signedPath, delivery.body);
    headers['x-svc-timestamp'] = timestamp;
    headers['x-svc-signature'] = hmacHex(delivery.secretHash, payload);
  }
  return headers;
}
