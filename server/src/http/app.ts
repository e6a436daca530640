import Fastify, { type FastifyInstance } from 'fastify';
import { type BoardDeps, registerBoard } from '../board/routes.ts';
import { registerTasksRoute, type TasksDeps } from './tasks.ts';

/** Largest accepted body. A report with a maximal description fits with room to spare. */
export const BODY_LIMIT = 1024 * 1024;

const ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'X-Svc-Key-Id',
  'X-Svc-Timestamp',
  'X-Svc-Signature',
  'X-Svc-Hide-Response',
  'X-Svc-App-Id',
].join(', ');
const EXPOSE_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After';

/**
 * The HTTP surface: CORS for browsers posting cross-origin, raw-body parsing (signatures need the
 * exact bytes), and JSON for every answer including 404s and errors. Client mistakes stay 4xx.
 */
export function buildApp(deps: TasksDeps & { board?: BoardDeps }): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT, return503OnClosing: false });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
    done(null, body),
  );

  app.addHook('onRequest', (req, reply, done) => {
    reply.headers({
      'access-control-allow-origin': req.headers.origin ?? '*',
      vary: 'Origin',
      'access-control-expose-headers': EXPOSE_HEADERS,
    });
    done();
  });
  app.options('/*', (_req, reply) => {
    reply
      .code(204)
      .header('Access-Control-Allow-Methods', 'POST, OPTIONS')
      .header('Access-Control-Allow-Headers', ALLOW_HEADERS)
      .header('Access-Control-Max-Age', '600')
      .send();
  });

  app.get('/health', async () => ({ ok: true }));
  registerTasksRoute(app, deps);
  if (deps.board) registerBoard(app, deps.board);

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ message: `No route for ${req.method} ${req.url.split('?')[0]}.` });
  });
  app.setErrorHandler(
    (err: { statusCode?: number; code?: string; message: string }, _req, reply) => {
      const status =
        err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      if (status === 500) console.error('svc-server: internal error', err);
      const message =
        status === 413
          ? `The request body is larger than ${BODY_LIMIT} bytes.`
          : status === 500
            ? 'Internal server error.'
            : err.message;
      reply.code(status).send({ message });
    },
  );
  return app;
}
