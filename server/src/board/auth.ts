import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from '../core/hash.ts';
import type { BoardStore } from '../store/board-types.ts';
import { ADMIN_TOKEN } from './tokens.ts';

// Who may see the board: an admin token as `Authorization: Bearer`, or the session cookie the
// login form sets. The cookie holds a random session id (the store keeps its sha256); it is
// HttpOnly, SameSite=Strict, scoped to /board, and Secure when the request came over HTTPS.

export const COOKIE = 'svc_board';
const SESSION_ID = /^[0-9a-f]{64}$/;

/** Who is asking: the admin token's name (recorded with each status change they make). */
export type Viewer =
  | { kind: 'bearer'; name: string }
  | { kind: 'session'; csrf: string; lookup: string; name: string };

/** The token a state-changing form must echo: derived from the (HttpOnly) session id. */
const csrfOf = (sessionId: string) => sha256Hex(`csrf:${sessionId}`);

export function readCookie(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** HTTPS directly, or a proxy saying so; either only ever adds the Secure flag. */
export const overHttps = (req: FastifyRequest) =>
  req.protocol === 'https' ||
  String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]!
    .trim() === 'https';

/**
 * A browser's POST must come from a board page: `Sec-Fetch-Site` is `same-origin`, or (older
 * browsers) `Origin` names this host. Clients that send neither are not browsers and carry no
 * ambient credentials a third-party site could ride on.
 */
export function sameOrigin(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    const host = new URL(origin).host;
    return host === req.headers.host || host === req.headers['x-forwarded-host'];
  } catch {
    return false;
  }
}

/** The board's sign-in and sessions over the board's store. */
export type BoardAuth = ReturnType<typeof createBoardAuth>;

export function createBoardAuth(store: BoardStore, now: () => number, sessionMs: number) {
  return {
    /** undefined: nothing presented; 'invalid': a bad bearer token (never falls back to the cookie). */
    async viewer(req: FastifyRequest): Promise<Viewer | 'invalid' | undefined> {
      const header = req.headers.authorization;
      if (header !== undefined) {
        const token = /^Bearer (\S+)$/.exec(header)?.[1];
        if (!token || !ADMIN_TOKEN.test(token)) return 'invalid';
        const found = await store.findAdminToken(sha256Hex(token));
        return found ? { kind: 'bearer', name: found.name } : 'invalid';
      }
      const id = readCookie(req, COOKIE);
      if (!id || !SESSION_ID.test(id)) return undefined;
      const lookup = sha256Hex(id);
      const session = await store.findSession(lookup, now());
      return session
        ? { kind: 'session', csrf: csrfOf(id), lookup, name: session.tokenName }
        : undefined;
    },

    /** Checks the token and opens a session; false when the token is not a live admin token. */
    async login(req: FastifyRequest, reply: FastifyReply, token: string): Promise<boolean> {
      if (!ADMIN_TOKEN.test(token)) return false;
      const found = await store.findAdminToken(sha256Hex(token));
      if (!found) return false;
      const id = randomBytes(32).toString('hex');
      const at = now();
      await store.insertSession({
        lookup: sha256Hex(id),
        tokenId: found.id,
        createdAt: at,
        expiresAt: at + sessionMs,
      });
      reply.header('set-cookie', cookie(req, id));
      return true;
    },

    async logout(req: FastifyRequest, reply: FastifyReply, viewer: Viewer, csrf: string) {
      if (viewer.kind !== 'session' || !formAllowed(req, viewer, csrf)) return false;
      await store.deleteSession(viewer.lookup);
      reply.header('set-cookie', cookie(req, '', 0));
      return true;
    },
  };
}

/**
 * May this state-changing POST act? It must be same-origin, and a cookie session must echo the
 * form token derived from its session id (compared in constant time). A bearer request carries no
 * ambient credential a third-party page could ride on, so it needs no form token.
 */
export function formAllowed(req: FastifyRequest, viewer: Viewer, csrf: string | null): boolean {
  if (!sameOrigin(req)) return false;
  return viewer.kind === 'bearer' || equal(csrf ?? '', viewer.csrf);
}

function cookie(req: FastifyRequest, value: string, maxAge?: number): string {
  const flags = ['Path=/board', 'HttpOnly', 'SameSite=Strict'];
  if (overHttps(req)) flags.push('Secure');
  if (maxAge !== undefined) flags.push(`Max-Age=${maxAge}`);
  return [`${COOKIE}=${value}`, ...flags].join('; ');
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
