import type { FastifyReply, FastifyRequest } from 'fastify';
import { CARD_STATUSES, type CardStatus } from '../accept/index.ts';
import { MAX_ID } from '../domain/types.ts';
import type { Viewer } from './auth.ts';
import { messagePage } from './layout.ts';
import { BadQuery } from './query.ts';

// What the board's routes share: who is asking (set by the board's onRequest hook), HTML answers,
// form bodies and ids from the URL.

/** The viewer of each request that passed the board's onRequest hook. */
export const viewers = new WeakMap<FastifyRequest, Viewer>();

/** The form token of the request's cookie session (a bearer request has none). */
export const csrfOf = (req: FastifyRequest) => {
  const v = viewers.get(req);
  return v?.kind === 'session' ? v.csrf : undefined;
};

export const send = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

export const notFound = (req: FastifyRequest, reply: FastifyReply) =>
  send(reply, 404, messagePage('Not found', 'There is nothing here.', csrfOf(req)));

/** 403 for a state-changing form without its token, or from another site. */
export const refused = (req: FastifyRequest, reply: FastifyReply) =>
  send(reply, 403, messagePage('Refused', 'The form was not valid; nothing changed.', csrfOf(req)));

export const formOf = (req: FastifyRequest) =>
  new URLSearchParams(Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '');

/** A positive id from the URL, else undefined: past `MAX_ID` it is no row's (a 404, as any other). */
export const idOf = (value: string) =>
  /^[1-9]\d{0,14}$/.test(value) && Number(value) <= MAX_ID ? Number(value) : undefined;

export const statusOf = (value: string | null): CardStatus => {
  if (!CARD_STATUSES.includes(value as CardStatus)) throw new BadQuery('Unknown status.');
  return value as CardStatus;
};
