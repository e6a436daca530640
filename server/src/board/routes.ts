import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT } from '../http/body.ts';
import { StoreUnavailableError } from '../store/availability.ts';
import { FAVICON, STYLESHEET } from './assets.ts';
import { type BoardAuth, createBoardAuth } from './auth.ts';
import { registerAlertRoutes } from './alert-routes.ts';
import { registerCardRoutes } from './card-routes.ts';
import { HOUR } from './format.ts';
import { secureHeaders } from './headers.ts';
import { messagePage } from './layout.ts';
import { registerProjectRoutes } from './project-routes.ts';
import { BadQuery } from './query.ts';
import { csrfOf, notFound, send, viewers } from './reply.ts';
import { PUBLIC, registerSignIn, throttled } from './sign-in-routes.ts';
import type { BoardDeps } from './deps.ts';
import { createSignInThrottle, type SignInThrottle } from './throttle.ts';

export type { BoardDeps };

/** The board under /board: sign-in, accounts, a project's cards, a card, a variant, status changes. */
export function registerBoard(app: FastifyInstance, deps: BoardDeps): void {
  const { store, now } = deps;
  const auth = createBoardAuth(store, now, deps.sessionMs ?? 12 * HOUR);
  const throttle = createSignInThrottle({
    now,
    counts: (key, at, rule) => store.signInFailed(key, at, rule),
    trustedProxies: deps.trustedProxies,
  });
  app.register(
    async (board) => {
      registerGuards(board, auth, throttle);
      registerAssets(board);
      registerSignIn(board, auth, throttle);
      registerProjectRoutes(board, deps);
      registerCardRoutes(board, deps);
      registerAlertRoutes(board, deps);
    },
    { prefix: '/board' },
  );
}

/**
 * What every board answer goes through: its security headers, the viewer's token or session
 * (sign-in attempts throttled per address; a GET without one goes to the sign-in form), and the
 * error pages (400 for a bad query, 503 with Retry-After while the database is unavailable).
 */
function registerGuards(board: FastifyInstance, auth: BoardAuth, throttle: SignInThrottle): void {
  board.addHook('onSend', async (_req, reply, payload) => {
    secureHeaders(reply);
    return payload;
  });
  board.addHook('onRequest', async (req, reply) => {
    if ((req.routeOptions.config as { public?: boolean } | undefined)?.public) return;
    // The token is checked first: a live one is never throttled.
    const viewer = await auth.viewer(req);
    if (viewer && viewer !== 'invalid') {
      viewers.set(req, viewer);
      return;
    }
    if (viewer === 'invalid') {
      const presented = req.headers.authorization ?? '';
      const wait = await throttle.failed(req, presented);
      if (wait > 0) return throttled(reply, wait, (text) => messagePage('Slow down', text));
    }
    if (viewer === undefined && req.method === 'GET') {
      return reply.redirect(`/board/login?next=${encodeURIComponent(req.url)}`, 303);
    }
    reply.header('www-authenticate', 'Bearer realm="svc board"');
    return send(reply, 401, messagePage('Sign in', 'This needs an admin token.'));
  });
  board.setNotFoundHandler(notFound);
  board.setErrorHandler((err, req, reply) => {
    if (err instanceof BadQuery || err instanceof RangeError) {
      return send(reply, 400, messagePage('Bad request', err.message, csrfOf(req)));
    }
    // A client's mistake the body parser found (a form over 1 MiB, a stalled upload): its status.
    const status = (err as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const [title, text] =
        status === 413
          ? ['Too large', `A form is at most ${BODY_LIMIT / 1024 / 1024} MiB; nothing changed.`]
          : ['Bad request', (err as Error).message];
      return send(reply, status, messagePage(title, text, csrfOf(req)));
    }
    if (err instanceof StoreUnavailableError) {
      reply.header('retry-after', err.retryAfter);
      const text = `The database is unavailable; try again in ${err.retryAfter} s.`;
      return send(reply, 503, messagePage('Unavailable', text, csrfOf(req)));
    }
    console.error('svc-server: board error', err);
    return send(reply, 500, messagePage('Error', 'The board could not answer.', csrfOf(req)));
  });
}

/** The stylesheet and the favicon, cached for a year (their paths change with their content). */
function registerAssets(board: FastifyInstance): void {
  for (const asset of [STYLESHEET, FAVICON]) {
    board.get(asset.path.slice('/board'.length), PUBLIC, (_req, reply) =>
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type(asset.type)
        .send(asset.body),
    );
  }
}
