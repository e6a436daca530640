// `POST /api/v1/sourcemaps` (spec `uploadSourceMap`): a build's source map, signed with the
// project's secret key over the constant path `SOURCEMAPS_PATH` (contract 5.2's rule otherwise).
// The body has its own limit (the per-file limit, far above the reports' 1 MiB), and the bodies
// read at once share a byte budget: past it the request is answered 503 with `Retry-After` before
// its body is read, and its connection closed.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MESSAGE, authenticate } from '../auth/authenticate.ts';
import { SOURCEMAPS_PATH } from '../generated/service.gen.ts';
import type { Uploads } from '../mapping/uploads.ts';
import type { Store } from '../store/types.ts';
import type { BodyLimits } from './body.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const EMPTY = Buffer.alloc(0);
/** Past the limit, this much more is read and dropped so a client still sending sees the 413. */
const DRAIN_BYTES = 1024 * 1024;
const BUSY_RETRY_AFTER = 2;

export interface SourceMapsRouteDeps {
  uploads: Uploads;
  store: Pick<Store, 'findAuthKey'>;
  now: () => number;
  skewSeconds: number;
  fileBytesMax: number;
  bodyTimeoutMs: number;
}

/** The body limits of an upload (read by the service's body parser from the route's config). */
export const uploadBodyLimits = (deps: SourceMapsRouteDeps): BodyLimits => ({
  limit: deps.fileBytesMax,
  drainLimit: deps.fileBytesMax + DRAIN_BYTES,
  timeoutMs: deps.bodyTimeoutMs,
});

/** What a request reserved of the body budget (released once, when it is answered or aborted). */
const reservations = new WeakMap<FastifyRequest, number>();

export function registerSourceMapsRoute(app: FastifyInstance, deps: SourceMapsRouteDeps): void {
  const bodyLimits = uploadBodyLimits(deps);
  const release = (req: FastifyRequest) => {
    const bytes = reservations.get(req);
    if (bytes === undefined) return;
    reservations.delete(req);
    deps.uploads.release(bytes);
  };
  app.post(SOURCEMAPS_PATH, {
    config: { bodyLimits },
    onRequest: (req, reply, done) => {
      const declared = Number(req.headers['content-length']);
      const bytes = Number.isFinite(declared) && declared >= 0 ? declared : bodyLimits.limit;
      if (bytes > bodyLimits.drainLimit) return done(); // the parser answers 413 at once
      if (!deps.uploads.reserve(Math.min(bytes, bodyLimits.limit))) {
        reply
          .code(503)
          .header('Retry-After', BUSY_RETRY_AFTER)
          .header('Connection', 'close')
          .type(JSON_TYPE)
          .send({ message: `Busy with other uploads; retry in ${BUSY_RETRY_AFTER} s.` });
        return;
      }
      reservations.set(req, Math.min(bytes, bodyLimits.limit));
      done();
    },
    onResponse: (req, _reply, done) => {
      release(req);
      done();
    },
    onRequestAbort: (req, done) => {
      release(req);
      done();
    },
    handler: (req, reply) => answerUpload(req, reply, deps),
  });
}

async function answerUpload(req: FastifyRequest, reply: FastifyReply, deps: SourceMapsRouteDeps) {
  const rawBody = Buffer.isBuffer(req.body) ? req.body : EMPTY;
  const key = await authenticate(deps.store, {
    headers: req.headers,
    method: req.method,
    rawBody,
    now: deps.now(),
    skewSeconds: deps.skewSeconds,
    signedPath: SOURCEMAPS_PATH,
  });
  if (!key) return reply.code(401).type(JSON_TYPE).send({ message: AUTH_MESSAGE });
  if (key.kind !== 'secret') {
    return reply.code(403).type(JSON_TYPE).send({
      message: 'Source maps are uploaded with a secret key (signed), never a publishable key.',
    });
  }
  const answer = await deps.uploads.answer(key.projectId, rawBody);
  if (answer.retryAfter !== undefined) reply.header('Retry-After', answer.retryAfter);
  return reply.code(answer.status).type(JSON_TYPE).send(answer.body);
}
