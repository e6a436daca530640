import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type BoardDeps, registerBoard } from '../board/routes.ts';
import { BODY_LIMIT, BodyError, type BodyLimits, readBody, tooLargeMessage } from './body.ts';
import { corsHeaders } from './cors.ts';
import { createFastTasks } from './fast-tasks.ts';
import { fastifyFactory } from './fastify.ts';
import { StoreUnavailableError } from '../store/availability.ts';
import type { Availability } from '../store/guard.ts';
import { boundConnectionsPerAddress } from './connections.ts';
import { registerHealth, sendUnavailable } from './health.ts';
import {
  answerExpectations,
  clientErrorHandler,
  MISSING_HOST,
  missingHost,
} from './node-errors.ts';
import { addKnownRate } from './rate.ts';
import { createTasksAnswer, type TasksDeps } from './tasks-answer.ts';
import { registerSourceMapsRoute, type SourceMapsRouteDeps } from './sourcemaps.ts';
import { registerTasksRoute } from './tasks.ts';

export { BODY_LIMIT };

/** Connection bounds (see ServerOptions for each one's meaning and default). */
export interface HttpLimits {
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerAddress: number;
}

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

type AppDeps = TasksDeps & {
  availability: Availability;
  board?: BoardDeps;
  limits: HttpLimits;
  /** The source-map upload route; absent when source maps are off. */
  sourceMaps?: Omit<SourceMapsRouteDeps, 'now' | 'skewSeconds' | 'bodyTimeoutMs' | 'store'>;
};

/**
 * The HTTP surface: CORS for browsers posting cross-origin, raw-body parsing (signatures need the
 * exact bytes), and JSON for every answer including 404s and errors. Client mistakes stay 4xx.
 */
export function buildApp(deps: AppDeps): FastifyInstance {
  const bodyLimits = {
    limit: BODY_LIMIT,
    drainLimit: 8 * BODY_LIMIT,
    timeoutMs: deps.limits.bodyTimeoutMs,
  };
  const answer = createTasksAnswer(deps);
  let httpServer: Server | undefined;
  const fastTasks = createFastTasks({
    ...deps,
    answer,
    bodyLimits,
    closing: () => httpServer?.listening === false,
  });
  const app = fastifyFactory()({
    logger: false,
    bodyLimit: BODY_LIMIT,
    return503OnClosing: false,
    keepAliveTimeout: deps.limits.keepAliveTimeoutMs,
    clientErrorHandler,
    // Node's server as Fastify would make it, with the tasks fast path (fast-tasks.ts) first.
    serverFactory: (fastify) => {
      httpServer = createNodeServer(deps.limits, (req, res) => {
        if (!fastTasks(req, res)) fastify(req, res);
      });
      return httpServer;
    },
  });
  app.server.maxConnections = deps.limits.maxConnections;
  boundConnectionsPerAddress(app.server, {
    perAddress: deps.limits.maxConnectionsPerAddress,
    maxConnections: deps.limits.maxConnections,
  });
  answerExpectations(app.server);
  app.decorateRequest('svcKey', null);
  registerBodyParser(app, bodyLimits);
  registerCors(app);
  registerHealth(app, deps.availability);
  registerTasksRoute(app, answer);
  if (deps.sourceMaps) {
    registerSourceMapsRoute(app, {
      ...deps.sourceMaps,
      store: deps.store,
      now: deps.now,
      skewSeconds: deps.skewSeconds,
      bodyTimeoutMs: deps.limits.bodyTimeoutMs,
    });
  }
  if (deps.board) registerBoard(app, deps.board);
  registerFallbacks(app, deps);
  return app;
}

/** Node's HTTP server with the service's bounds on headers and idle connections. */
function createNodeServer(limits: HttpLimits, listener: RequestListener): Server {
  const server = createServer(
    {
      // Answered by the first hook with a JSON body (Node's own answer has none).
      requireHostHeader: false,
      headersTimeout: limits.headersTimeoutMs,
      // How often Node looks for stalled headers (its default, 30 s, would add up to 30 s).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    listener,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.requestTimeout = 0; // Fastify's defaults: the body and headers have their own bounds
  server.setTimeout(0);
  return server;
}

/** The only body parser: raw bytes, bounded (`body.ts`). */
function registerBodyParser(app: FastifyInstance, bodyLimits: BodyLimits): void {
  app.removeAllContentTypeParsers();
  // A route may read larger bodies (the source-map upload): its config names its own limits.
  app.addContentTypeParser('*', (req: FastifyRequest, payload: IncomingMessage) =>
    readBody(
      payload,
      (req.routeOptions.config as { bodyLimits?: BodyLimits }).bodyLimits ?? bodyLimits,
    ),
  );
}

/** A request without a Host is a 400; every answer carries CORS headers; preflights are 204. */
function registerCors(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (missingHost(req.raw)) {
      reply.code(400).header('connection', 'close').send(MISSING_HOST);
      return;
    }
    reply.headers(corsHeaders(req.headers.origin));
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
}

/** JSON 404s and errors, with the rate headers of a known key; 503 while the store is down. */
function registerFallbacks(app: FastifyInstance, deps: AppDeps): void {
  app.setNotFoundHandler(async (req, reply) => {
    await addKnownRate(req, reply, deps);
    return reply
      .code(404)
      .send({ message: `No route for ${req.method} ${req.url.split('?')[0]}.` });
  });
  app.setErrorHandler(
    async (err: { statusCode?: number; code?: string; message: string }, req, reply) => {
      // Logged once per outage by the store's guard, not per request.
      if (err instanceof StoreUnavailableError) return sendUnavailable(reply, deps.availability);
      const status =
        err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      if (status === 500) console.error('svc-server: internal error', err);
      const message =
        status === 413
          ? err instanceof BodyError
            ? err.message
            : tooLargeMessage(BODY_LIMIT)
          : status === 500
            ? 'Internal server error.'
            : err.message;
      await addKnownRate(req, reply, deps);
      return reply.code(status).send({ message });
    },
  );
}
