import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/authenticate.ts';
import type { AuthKey, RateState, Store } from '../store/types.ts';

export interface RateDeps {
  store: Store;
  now: () => number;
  skewSeconds: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key the request authenticated with, once the tasks route knows it. */
    svcKey: AuthKey | null;
  }
}

const EMPTY = Buffer.alloc(0);

export const withRate = (reply: FastifyReply, rate: RateState) =>
  reply.header('X-RateLimit-Limit', rate.limit).header('X-RateLimit-Remaining', rate.remaining);

/**
 * Contract 8.2: every answer carries the rate headers once the project is known. For answers the
 * tasks route did not give (404, 413, 408, parse errors) the request's credentials are checked
 * here: a bearer token needs only the headers; a signature needs the body, so a signed request
 * whose body was not read (413, 408) stays anonymous. Nothing is known for a 401. Undefined also
 * when the lookup fails: the answer then goes out without rate headers rather than not at all.
 */
export async function knownRate(
  req: { key?: AuthKey | null; headers: IncomingHttpHeaders; method: string; rawBody?: Buffer },
  deps: RateDeps,
): Promise<RateState | undefined> {
  try {
    const key =
      req.key ??
      (await authenticate(deps.store, {
        headers: req.headers,
        method: req.method,
        rawBody: req.rawBody ?? EMPTY,
        now: deps.now(),
        skewSeconds: deps.skewSeconds,
      }));
    return key ? await deps.store.rateState(key.projectId, key.plan) : undefined;
  } catch {
    return undefined;
  }
}

/** `knownRate` for an answer Fastify gives (not found, errors). */
export async function addKnownRate(
  req: FastifyRequest,
  reply: FastifyReply,
  deps: RateDeps,
): Promise<void> {
  const rate = await knownRate(
    {
      key: req.svcKey,
      headers: req.headers,
      method: req.method,
      rawBody: Buffer.isBuffer(req.body) ? req.body : undefined,
    },
    deps,
  );
  if (rate) withRate(reply, rate);
}
