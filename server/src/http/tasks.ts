import type { FastifyInstance, FastifyReply } from 'fastify';
import { TASKS_PATH } from '../generated/service.gen.ts';
import { withRate } from './rate.ts';
import type { createTasksAnswer, TasksAnswer } from './tasks-answer.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const EMPTY = Buffer.alloc(0);

/** Writes a tasks answer through Fastify (the CORS headers are already set by the hook). */
export function sendAnswer(reply: FastifyReply, answer: TasksAnswer) {
  if (answer.rate) withRate(reply, answer.rate);
  if (answer.retryAfter !== undefined) reply.header('Retry-After', answer.retryAfter);
  return reply.code(answer.status).type(JSON_TYPE).send(answer.body);
}

/**
 * POST `TASKS_PATH` through Fastify, for the request forms the raw fast path leaves to it (an
 * encoded or absolute path, a request without Host); both share `createTasksAnswer`.
 */
export function registerTasksRoute(
  app: FastifyInstance,
  answer: ReturnType<typeof createTasksAnswer>,
): void {
  app.post(TASKS_PATH, async (req, reply) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : EMPTY;
    const result = await answer({
      headers: req.headers,
      method: req.method,
      rawBody,
      onKey: (key) => (req.svcKey = key),
    });
    return sendAnswer(reply, result);
  });
}
