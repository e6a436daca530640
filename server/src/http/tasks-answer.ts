import type { IncomingHttpHeaders } from 'node:http';
import { AUTH_MESSAGE, authenticate, type KeyLookup } from '../auth/authenticate.ts';
import { originAllowed } from '../auth/origin.ts';
import { envelopeOf } from '../core/decrypt.ts';
import { openWithProjectKeys } from '../core/key-rotation.ts';
import { validateReport } from '../core/validate.ts';
import type { AuthKey, RateState, Store, TaskReport } from '../store/types.ts';
import { createTurnBudget } from './turns.ts';

export interface TasksDeps {
  store: Store;
  /**
   * Rewrites a valid report's frames through the project's source maps before it is ingested
   * (mapping/mapper.ts); absent when source maps are off.
   */
  mapReport?: (projectId: number, report: TaskReport) => TaskReport | Promise<TaskReport>;
  now: () => number;
  skewSeconds: number;
  /** Called after a commit that queued quota-warning mail. */
  onMailQueued?: () => void;
}

/** The request as the tasks answer needs it: the raw body bytes (signatures cover them). */
export interface TasksRequest {
  headers: IncomingHttpHeaders;
  method: string;
  rawBody: Buffer;
  /** Told the key once the request authenticated (answers to a later failure carry its rate). */
  onKey?: (key: AuthKey) => void;
}

/**
 * The answer to one `POST /api/v1/tasks`, before it is written: status, JSON body, the rate
 * headers once the project is known (contract 8.2) and `Retry-After` for 429s. `key` is the key
 * the request authenticated with, if any (the error answers look up its rate with it).
 */
export interface TasksAnswer {
  status: number;
  body: string;
  key?: AuthKey;
  rate?: RateState;
  retryAfter?: number;
}

const DECRYPT_MESSAGE = 'Could not decrypt the request payload.';
const UTF8 = new TextDecoder('utf-8', { fatal: true });
// The hidden answers are constant: ready-made JSON, no serialisation per request.
const HIDDEN = { true: '{"deduplicated":true}', false: '{"deduplicated":false}' } as const;
const UNAUTHORIZED = JSON.stringify({ message: AUTH_MESSAGE });
const FORBIDDEN = JSON.stringify({ message: 'Origin not allowed.' });
const NOT_JSON = JSON.stringify({
  message: 'The request body is not valid UTF-8 JSON.',
  errors: { body: ['The body must be a JSON object.'] },
});
const NOT_DECRYPTED = JSON.stringify({ message: DECRYPT_MESSAGE });
const DROPPED = {
  quota: JSON.stringify({ dropped: true, reason: 'quota', quota_exceeded: true }),
  paused: JSON.stringify({ dropped: true, reason: 'paused', quota_exceeded: true }),
  archived: JSON.stringify({ dropped: true, reason: 'archived', quota_exceeded: true }),
} as const;

export const isHidden = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v[0] : v)?.trim().toLowerCase() === 'true';

/**
 * The tasks endpoint's decision (contract 4, 5, 7, 8, 10): auth, origin, decrypt, validate, then
 * one committed ingest decision. Shared by the raw fast path (`fast-tasks.ts`) and the Fastify
 * route (`tasks.ts`), which only read the body and write the answer. Store failures reject (the
 * caller answers 503 or 500).
 */
export function createTasksAnswer(deps: TasksDeps): (req: TasksRequest) => Promise<TasksAnswer> {
  const { store } = deps;
  const turn = createTurnBudget();
  const keys: KeyLookup = {
    findAuthKey: (kind, lookup) =>
      store.findIngestKey ? store.findIngestKey(kind, lookup) : store.findAuthKey(kind, lookup),
  };
  return async (req) => {
    const wait = turn(); // under load, the work below waits for its share of a loop turn
    if (wait) await wait;
    const credentials = () => ({
      headers: req.headers,
      method: req.method,
      rawBody: req.rawBody,
      now: deps.now(),
      skewSeconds: deps.skewSeconds,
    });
    const key = await authenticate(keys, credentials());
    if (!key) return { status: 401, body: UNAUTHORIZED };
    req.onKey?.(key);
    const reject = async (status: number, body: string): Promise<TasksAnswer> => {
      // A key kept by the store for ingestion (`findIngestKey`) is checked again only by the
      // write; an answer that never reaches it checks the key live, so a revoked key is a 401.
      if (store.findIngestKey && !(await authenticate(store, credentials()))) {
        return { status: 401, body: UNAUTHORIZED };
      }
      return { status, body, key, rate: await store.rateState(key.projectId, key.plan) };
    };

    if (key.kind === 'publishable' && !originAllowed(key.origins, req.headers)) {
      return reject(403, FORBIDDEN);
    }
    let body: unknown;
    try {
      body = JSON.parse(UTF8.decode(req.rawBody));
    } catch {
      return reject(422, NOT_JSON);
    }
    const envelope = envelopeOf(body);
    if (envelope) {
      const opened = await openWithProjectKeys(envelope, store, key.projectId);
      if (!opened) return reject(422, NOT_DECRYPTED);
      body = opened.body;
    }
    const valid = validateReport(body);
    if (!valid.ok) {
      return reject(
        422,
        JSON.stringify({ message: 'The given data was invalid.', errors: valid.errors }),
      );
    }

    const hidden = isHidden(req.headers['x-svc-hide-response']);
    const mapped = deps.mapReport ? deps.mapReport(key.projectId, valid.report) : valid.report;
    const report = mapped instanceof Promise ? await mapped : mapped;
    const outcome = await store.ingest(key, report, { card: !hidden });
    switch (outcome.kind) {
      case 'rate_limited':
        return {
          status: 429,
          body: JSON.stringify({
            message: `Too many reports for this project; retry in ${outcome.retryAfter} s.`,
          }),
          key,
          rate: outcome.rate,
          retryAfter: outcome.retryAfter,
        };
      case 'dropped':
        return { status: 200, body: DROPPED[outcome.reason], key, rate: outcome.rate };
      case 'revoked':
        return { status: 401, body: UNAUTHORIZED };
      default: {
        if (outcome.mailQueued) deps.onMailQueued?.();
        const deduplicated = outcome.kind === 'deduplicated';
        return {
          status: deduplicated ? 200 : 201,
          body: hidden
            ? HIDDEN[`${deduplicated}`]
            : JSON.stringify({ data: outcome.card, deduplicated }),
          key,
          rate: outcome.rate,
        };
      }
    }
  };
}
