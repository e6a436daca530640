import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_ENV, RESOLVED_STATUS, type CardStatus } from '../accept/index.ts';
import { LIMITS } from '../generated/limits.gen.ts';

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
  const match = new RegExp(`(?:^|;\\s*)${ENV_COOKIE}=([^;]*)`).exec(req.headers.cookie ?? '');
  return match ? envName(decodeURIComponent(match[1]!)) : undefined;
};

/**
 * The environment of a board request: `?env=` (remembered for the next pages), else the cookie,
 * else production.
 */
export function viewedEnv(req: FastifyRequest, reply: FastifyReply, asked: string | null): string {
  const chosen = envName(asked);
  if (chosen !== undefined) {
    if (chosen !== cookieEnv(req)) {
      reply.header(
        'set-cookie',
        `${ENV_COOKIE}=${encodeURIComponent(chosen)}; Path=/board; Max-Age=31536000; SameSite=Strict; HttpOnly`,
      );
    }
    return chosen;
  }
  return cookieEnv(req) ?? DEFAULT_ENV;
}

/** The environment a status form resolves in (its `env` field, else production); only for done. */
export const resolvedIn = (status: CardStatus, field: string | null): string | undefined =>
  status === RESOLVED_STATUS ? (envName(field) ?? DEFAULT_ENV) : undefined;
