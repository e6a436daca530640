import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Availability } from '../store/guard.ts';

/** The message of a 503 while the database is unreachable (contract 7: `{ message }`). */
export const unavailableMessage = (retryAfter: number) =>
  `The service's database is unavailable; retry in ${retryAfter} s.`;

/** 503 with `Retry-After` (the SDKs retry it, contract 7 and 8.4): the database is unreachable. */
export function sendUnavailable(reply: FastifyReply, availability: Availability) {
  const retryAfter = availability.retryAfter();
  return reply
    .code(503)
    .header('Retry-After', retryAfter)
    .send({ message: unavailableMessage(retryAfter) });
}

/**
 * `GET /health`, liveness: 200 while the process serves, with the database's state as last seen
 * (no round trip, so it answers at once under any load). `GET /health/ready`, readiness for a load
 * balancer: 200 when the database answers, else 503 with `Retry-After`; it pings the database
 * only when the store's own calls have not shown it up within the last second.
 */
export function registerHealth(app: FastifyInstance, availability: Availability): void {
  app.get('/health', async () => ({ ok: true, database: availability.health().database }));
  app.get('/health/ready', async (_req, reply) => {
    if (await availability.ready()) return { ok: true, database: 'up' };
    const retryAfter = availability.retryAfter();
    return reply
      .code(503)
      .header('Retry-After', retryAfter)
      .send({ ok: false, database: 'down', message: unavailableMessage(retryAfter) });
  });
}
