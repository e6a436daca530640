import type { FastifyReply } from 'fastify';

/**
 * Every board answer: no script at all, styles and images only from the board itself, forms
 * only to it, never framed; nothing cached except the content-hashed assets. The service's
 * CORS headers (for browsers posting reports) are taken off: no other origin reads the board.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function secureHeaders(reply: FastifyReply): void {
  reply.removeHeader('access-control-allow-origin');
  reply.removeHeader('access-control-expose-headers');
  reply.removeHeader('vary');
  reply.headers({
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  });
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}
