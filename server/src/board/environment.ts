import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_ENV, RESOLVED_STATUS, type CardStatus } from '../accept/index.ts';
import { LIMITS } from '../generated/limits.gen.ts';
import { overHttps, readCookie } from './auth.ts';
import { BadQuery } from './query.ts';

// The environment a viewer looks at: the board shows one at a time (its counts, charts and last
// seen), production unless another was chosen; the choice is remembered per browser in a cookie.
// Resolving a card resolves it in the environment it was viewed in.

/** The cookie that remembers the environment a browser last chose. */
export const ENV_COOKIE = 'svc_env';
/** The longest environment name a tag can hold (`env:` and the name within a tag's limit). */
export const ENV_MAX = LIMITS.tagMax - 'env:'.length;

/** A valid environment name (as a report's `env:` tag holds it), else undefined. */
export function envName(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const name = value.trim();
  // Printable, no spaces: what a tag holds and a cookie may carry unquoted.
  return name.length > 0 &&
    name.length <= ENV_MAX &&
    /^[\x21-\x7e]+$/.test(name) &&
    !/[;,"\\]/.test(name)
    ? name
    : undefined;
}

const cookieEnv = (req: FastifyRequest) => {
  const value = readCookie(req, ENV_COOKIE);
  try {
    return value === undefined ? undefined : envName(decodeURIComponent(value));
  } catch {
    return undefined; // malformed percent-encoding: as if none
  }
};

/** The cookie remembering `env` (empty and expired: forget it), Secure as the session's. */
export const envCookie = (req: FastifyRequest, env: string | undefined) =>
  `${ENV_COOKIE}=${env === undefined ? '' : encodeURIComponent(env)}; Path=/board; Max-Age=${env === undefined ? 0 : 31_536_000}; SameSite=Strict; HttpOnly${overHttps(req) ? '; Secure' : ''}`;

/**
 * The environment of a board request: `?env=` (remembered for the next pages), else the cookie,
 * else production.
 */
export function viewedEnv(req: FastifyRequest, reply: FastifyReply, asked: string | null): string {
  const chosen = envName(asked);
  if (chosen !== undefined) {
    if (chosen !== cookieEnv(req)) reply.header('set-cookie', envCookie(req, chosen));
    return chosen;
  }
  return cookieEnv(req) ?? DEFAULT_ENV;
}

/**
 * The release a status form resolves in (its `release` field: a release's name as a tag holds
 * it), only for done; none when empty. A name a tag could not hold is a 400.
 */
export function releaseOf(status: CardStatus, field: string | null): string | undefined {
  const name = field?.trim() ?? '';
  if (status !== RESOLVED_STATUS || name === '') return undefined;
  if (name.length > LIMITS.tagMax - 'release:'.length || /\p{Cc}/u.test(name)) {
    throw new BadQuery('That is not a release name.');
  }
  return name;
}

/** The environment a status form resolves in (its `env` field, else production); only for done. */
export const resolvedIn = (status: CardStatus, field: string | null): string | undefined =>
  status === RESOLVED_STATUS ? (envName(field) ?? DEFAULT_ENV) : undefined;
