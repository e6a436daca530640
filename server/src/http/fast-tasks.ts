import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { TASKS_PATH } from '../generated/service.gen.ts';
import { StoreUnavailableError } from '../store/availability.ts';
import type { Availability } from '../store/guard.ts';
import type { AuthKey, RateState } from '../domain/types.ts';
import { type BodyError, type BodyLimits, readBody } from './body.ts';
import { corsHeaders } from './cors.ts';
import { unavailableMessage } from './health.ts';
import { missingHost } from './node-errors.ts';
import { knownRate, type RateDeps } from './rate.ts';
import type { TasksAnswer, TasksRequest } from './tasks-answer.ts';

// `POST /api/v1/tasks` served on Node's own request event, ahead of Fastify: its routing, hooks,
// content-type parsing and reply objects cost a fifth of the request on this hot path (a constant
// answer through Fastify reaches 84 % of bare node:http). The answers are the ones the Fastify
// route and its error handler give, header for header (CORS, rate headers, `Retry-After`,
// `Connection: close` after a body error); every other request, and the rarer forms of this one
// (an encoded or absolute path, no Host, an unusual Content-Type), go to Fastify unchanged.

const JSON_TYPE = 'application/json; charset=utf-8';
/** The content types the fast path takes: absent, or JSON as the SDKs send it. */
const PLAIN_JSON = /^application\/json(?:\s*;\s*charset=(?:utf-8|"utf-8"))?$/i;

export interface FastTasksDeps extends RateDeps {
  answer: (req: TasksRequest) => Promise<TasksAnswer>;
  /** True once the server is closing: answers then close their connection (as Fastify's do). */
  closing: () => boolean;
  availability: Availability;
  bodyLimits: BodyLimits;
}

/** True for the requests the fast path answers; the rest go to Fastify. */
export function takesFastPath(req: IncomingMessage): boolean {
  if (req.method !== 'POST') return false;
  const url = req.url!;
  if (url !== TASKS_PATH && !(url.startsWith(TASKS_PATH) && url[TASKS_PATH.length] === '?')) {
    return false;
  }
  const type = req.headers['content-type'];
  return (type === undefined || PLAIN_JSON.test(type)) && !missingHost(req);
}

function write(
  closing: boolean,
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: string,
  extra: { rate?: RateState; retryAfter?: number; close?: boolean },
) {
  const headers: OutgoingHttpHeaders = corsHeaders(req.headers.origin);
  if (extra.rate) {
    headers['x-ratelimit-limit'] = extra.rate.limit;
    headers['x-ratelimit-remaining'] = extra.rate.remaining;
  }
  if (extra.retryAfter !== undefined) headers['retry-after'] = String(extra.retryAfter);
  headers['content-type'] = JSON_TYPE;
  if (extra.close || closing) headers.connection = 'close';
  headers['content-length'] = Buffer.byteLength(body);
  res.writeHead(status, headers);
  res.end(body);
}

/** The request handler of the fast path: answers and returns true, or returns false. */
export function createFastTasks(deps: FastTasksDeps) {
  const fail = async (
    req: IncomingMessage,
    res: ServerResponse,
    known: { key?: AuthKey; rawBody: Buffer },
    error: unknown,
  ) => {
    if (error instanceof StoreUnavailableError) {
      const retryAfter = deps.availability.retryAfter();
      write(
        deps.closing(),
        req,
        res,
        503,
        JSON.stringify({ message: unavailableMessage(retryAfter) }),
        {
          retryAfter,
        },
      );
      return;
    }
    console.error('svc-server: internal error', error);
    const rate = await knownRate({ ...known, headers: req.headers, method: 'POST' }, deps);
    write(deps.closing(), req, res, 500, '{"message":"Internal server error."}', { rate });
  };

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    let rawBody: Buffer;
    try {
      rawBody = await readBody(req, deps.bodyLimits);
    } catch (error) {
      const { statusCode, message } = error as BodyError;
      // As Fastify's parser errors: the client may still be sending, so the connection closes.
      const rate = await knownRate({ headers: req.headers, method: 'POST' }, deps);
      write(deps.closing(), req, res, statusCode, JSON.stringify({ message }), {
        rate,
        close: true,
      });
      return;
    }
    let key: AuthKey | undefined;
    try {
      const answer = await deps.answer({
        headers: req.headers,
        method: 'POST',
        rawBody,
        onKey: (k) => (key = k),
      });
      write(deps.closing(), req, res, answer.status, answer.body, answer);
    } catch (error) {
      await fail(req, res, { key, rawBody }, error);
    }
  };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!takesFastPath(req)) return false;
    void serve(req, res);
    return true;
  };
}
