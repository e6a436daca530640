import type { FastifyInstance } from 'fastify';
import { AUTH_MESSAGE, authenticate } from '../auth/authenticate.ts';
import { originAllowed } from '../auth/origin.ts';
import { envelopeOf } from '../core/decrypt.ts';
import { openWithProjectKeys } from '../core/key-rotation.ts';
import { validateReport } from '../core/validate.ts';
import { TASKS_PATH } from '../generated/service.gen.ts';
import type { Store } from '../store/types.ts';
import { withRate } from './rate.ts';
import { createTurnBudget } from './turns.ts';

export interface TasksDeps {
  store: Store;
  now: () => number;
  skewSeconds: number;
  /** Called after a commit that queued quota-warning mail. */
  onMailQueued?: () => void;
}

const DECRYPT_MESSAGE = 'Could not decrypt the request payload.';
const EMPTY = Buffer.alloc(0);
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const JSON_TYPE = 'application/json; charset=utf-8';
// The hidden answers are constant: sent as ready-made JSON, no serialisation per request.
const HIDDEN = { true: '{"deduplicated":true}', false: '{"deduplicated":false}' } as const;

const hidden = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v[0] : v)?.trim().toLowerCase() === 'true';

/** POST `TASKS_PATH` (the one endpoint): auth, origin, decrypt, validate, then one committed ingest decision. */
export function registerTasksRoute(app: FastifyInstance, deps: TasksDeps): void {
  const { store } = deps;
  const turn = createTurnBudget();
  app.post(TASKS_PATH, async (req, reply) => {
    const wait = turn(); // under load, the work below waits for its share of a loop turn
    if (wait) await wait;
    const rawBody = Buffer.isBuffer(req.body) ? req.body : EMPTY;
    const key = await authenticate(store, {
      headers: req.headers,
      method: req.method,
      rawBody,
      now: deps.now(),
      skewSeconds: deps.skewSeconds,
    });
    if (!key) return reply.code(401).send({ message: AUTH_MESSAGE });
    req.svcKey = key;
    const reject = async (status: number, body: object) =>
      withRate(reply, await store.rateState(key.projectId, key.plan))
        .code(status)
        .send(body);

    if (key.kind === 'publishable' && !originAllowed(key.origins, req.headers)) {
      return reject(403, { message: 'Origin not allowed.' });
    }
    let body: unknown;
    try {
      body = JSON.parse(UTF8.decode(rawBody));
    } catch {
      return reject(422, {
        message: 'The request body is not valid UTF-8 JSON.',
        errors: { body: ['The body must be a JSON object.'] },
      });
    }
    const envelope = envelopeOf(body);
    if (envelope) {
      const opened = await openWithProjectKeys(envelope, store, key.projectId);
      if (!opened) return reject(422, { message: DECRYPT_MESSAGE });
      body = opened.body;
    }
    const valid = validateReport(body);
    if (!valid.ok) {
      return reject(422, { message: 'The given data was invalid.', errors: valid.errors });
    }

    const outcome = await store.ingest(key, valid.report);
    withRate(reply, outcome.rate);
    switch (outcome.kind) {
      case 'rate_limited':
        return reply
          .code(429)
          .header('Retry-After', outcome.retryAfter)
          .send({
            message: `Too many reports for this project; retry in ${outcome.retryAfter} s.`,
          });
      case 'dropped':
        return reply
          .code(200)
          .send({ dropped: true, reason: outcome.reason, quota_exceeded: true });
      default: {
        if (outcome.mailQueued) deps.onMailQueued?.();
        const deduplicated = outcome.kind === 'deduplicated';
        reply.code(deduplicated ? 200 : 201);
        return hidden(req.headers['x-svc-hide-response'])
          ? reply.type(JSON_TYPE).send(HIDDEN[`${deduplicated}`])
          : reply.send({ data: outcome.card, deduplicated });
      }
    }
  });
}
