import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type BoardAuth, sameOrigin } from './auth.ts';
import { envCookie } from './environment.ts';
import { messagePage } from './layout.ts';
import { loginPage, safeNext } from './pages/login.ts';
import { csrfOf, formOf, send, viewers } from './reply.ts';
import type { SignInThrottle } from './throttle.ts';

/** Routes open without a token: the sign-in form and the static assets. */
export const PUBLIC = { config: { public: true } };

/** 429 with Retry-After while the address has spent its sign-in attempts. */
export function throttled(
  throttle: SignInThrottle,
  req: FastifyRequest,
  reply: FastifyReply,
  body: (text: string) => string,
) {
  const wait = throttle.retryAfter(req.socket.remoteAddress);
  if (wait === 0) return undefined;
  const text = `Too many wrong tokens from your address; try again in ${wait} s.`;
  return send(reply.header('retry-after', wait), 429, body(text));
}

/** The sign-in form and its POST (same-origin, throttled per address), and signing out. */
export function registerSignIn(
  board: FastifyInstance,
  auth: BoardAuth,
  throttle: SignInThrottle,
): void {
  board.get('/login', PUBLIC, async (req, reply) => {
    const next = new URL(req.url, 'http://x').searchParams.get('next');
    const viewer = await auth.viewer(req);
    if (viewer && viewer !== 'invalid') return reply.redirect(safeNext(next), 303);
    return send(reply, 200, loginPage(safeNext(next)));
  });
  board.post('/login', PUBLIC, async (req, reply) => {
    if (!sameOrigin(req)) return send(reply, 403, messagePage('Refused', 'Cross-site form.'));
    const form = formOf(req);
    const next = safeNext(form.get('next'));
    const limited = throttled(throttle, req, reply, (text) => loginPage(next, text));
    if (limited) return limited;
    if (!(await auth.login(req, reply, form.get('token')?.trim() ?? ''))) {
      throttle.failed(req.socket.remoteAddress);
      return send(reply, 401, loginPage(next, 'That is not a live admin token.'));
    }
    return reply.redirect(next, 303);
  });
  board.post('/logout', async (req, reply) => {
    const viewer = viewers.get(req)!;
    if (
      !sameOrigin(req) ||
      !(await auth.logout(req, reply, viewer, formOf(req).get('csrf') ?? ''))
    ) {
      return send(
        reply,
        403,
        messagePage('Refused', 'The sign-out form was not valid.', csrfOf(req)),
      );
    }
    // The environment the browser viewed is forgotten with its session.
    reply.header('set-cookie', envCookie(req, undefined));
    return reply.redirect('/board/login', 303);
  });
}
