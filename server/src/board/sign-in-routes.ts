import type { FastifyInstance, FastifyReply } from 'fastify';
import { type BoardAuth, sameOrigin } from './auth.ts';
import { envCookie } from './environment.ts';
import { messagePage } from './layout.ts';
import { loginPage, safeNext } from './pages/login.ts';
import { csrfOf, formOf, send, viewers } from './reply.ts';
import type { SignInThrottle } from './throttle.ts';

/** Routes open without a token: the sign-in form and the static assets. */
export const PUBLIC = { config: { public: true } };

/** 429 with Retry-After: the client (or the token) has spent its wrong attempts. */
export function throttled(reply: FastifyReply, wait: number, body: (text: string) => string) {
  const text = `Too many wrong tokens from your address, or with this token; try again in ${wait} s. A live admin token still signs in.`;
  return send(reply.header('retry-after', wait), 429, body(text));
}

/** The sign-in form and its POST (same-origin; wrong tokens throttled), and signing out. */
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
    const token = form.get('token')?.trim() ?? '';
    // A live token signs in whatever was tried before it; a wrong one is counted.
    if (!(await auth.login(req, reply, token))) {
      const wait = await throttle.failed(req, token);
      if (wait > 0) return throttled(reply, wait, (text) => loginPage(next, text));
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
