import type { OutgoingHttpHeaders } from 'node:http';

/** Headers a browser may read from a cross-origin answer (contract 8.2's rate headers). */
export const EXPOSE_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After';

/** The CORS headers of every answer: the request's origin (any is allowed), else `*`. */
export const corsHeaders = (origin: string | undefined): OutgoingHttpHeaders => ({
  'access-control-allow-origin': origin ?? '*',
  vary: 'Origin',
  'access-control-expose-headers': EXPOSE_HEADERS,
});
