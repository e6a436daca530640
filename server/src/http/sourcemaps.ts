// `POST /api/v1/sourcemaps` (spec `uploadSourceMap`): a build's source map, signed with the
// project's secret key over the constant path `SOURCEMAPS_PATH` (contract 5.2's rule otherwise).
// The body has its own limit (the per-file limit, far above the reports' 1 MiB), and the bodies
// read at once share a byte budget: past it the request is answered 503 with `Retry-After` before
// its body is read, and its connection closed. What the headers alone refuse (a publishable key,
// a key id of no live secret key) is refused before the body is read too.
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
    onRequest: async (req, reply) => {
      // Refused before its body is read: a publishable key, or a key id no live secret key has.
      const refused = await refusedEarly(req, deps);
      if (refused) return unread(reply, refused.status, refused.message);
      const declared = Number(req.headers['content-length']);
      const bytes = Number.isFinite(declared) && declared >= 0 ? declared : bodyLimits.limit;
      if (bytes > bodyLimits.drainLimit) return; // the parser answers 413 at once
      if (!deps.uploads.reserve(Math.min(bytes, bodyLimits.limit))) {
        reply.header('Retry-After', BUSY_RETRY_AFTER);
        return unread(reply, 503, `Busy with other uploads; retry in ${BUSY_RETRY_AFTER} s.`);
      }
      reservations.set(req, Math.min(bytes, bodyLimits.limit));
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

const PUBLISHABLE_REFUSED =
  'Source maps are uploaded with a secret key (signed), never a publishable key.';

/** An answer sent before the body is read: the connection closes (the client may still send). */
const unread = (reply: FastifyReply, status: number, message: string) =>
  reply.code(status).header('Connection', 'close').type(JSON_TYPE).send({ message });

/**
 * What the headers alone refuse: a bearer token (403 for a live publishable key, else 401), or
 * signed headers whose key id names no live secret key (401). The signature itself covers the
 * body, so it is checked once the body is read.
 */
async function refusedEarly(
  req: FastifyRequest,
  deps: SourceMapsRouteDeps,
): Promise<{ status: number; message: string } | undefined> {
  if (req.headers.authorization !== undefined) {
    const key = await authenticate(deps.store, {
      headers: req.headers,
      method: req.method,
      rawBody: EMPTY,
      now: deps.now(),
      skewSeconds: deps.skewSeconds,
    });
    return key?.kind === 'publishable'
      ? { status: 403, message: PUBLISHABLE_REFUSED }
      : { status: 401, message: AUTH_MESSAGE };
  }
  const keyId = req.headers['x-svc-key-id'];
  const live = typeof keyId === 'string' && (await deps.store.findAuthKey('secret', keyId));
  return live ? undefined : { status: 401, message: AUTH_MESSAGE };
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
    return reply.code(403).type(JSON_TYPE).send({ message: PUBLISHABLE_REFUSED });
  }
  const answer = await deps.uploads.answer(key.projectId, rawBody);
  if (answer.retryAfter !== undefined) reply.header('Retry-After', answer.retryAfter);
  return reply.code(answer.status).type(JSON_TYPE).send(answer.body);
}
