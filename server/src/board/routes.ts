import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StoreUnavailableError } from '../store/availability.ts';
import type { BoardStore } from '../store/board-types.ts';
import type { Plan, PlanLimits } from '../store/types.ts';
import { FAVICON, STYLESHEET } from './assets.ts';
import { createBoardAuth, formAllowed, sameOrigin } from './auth.ts';
import { registerCardRoutes } from './card-routes.ts';
import { DAY, HOUR } from './format.ts';
import { secureHeaders } from './headers.ts';
import { messagePage } from './layout.ts';
import { loginPage, safeNext } from './pages/login.ts';
import {
  ACCOUNTS_PER_PAGE,
  accountPage,
  overviewPage,
  PROJECTS_PER_ACCOUNT,
  PROJECTS_PER_PAGE,
} from './pages/overview.ts';
import { BadQuery, parseIdPage } from './query.ts';
import { csrfOf, formOf, idOf, notFound, refused, send, statusOf, viewers } from './reply.ts';
import { withChange } from './changes.ts';
import { envCookie, resolvedIn } from './environment.ts';
import { projectPage } from './project-page.ts';
import { createSignInThrottle } from './throttle.ts';

export interface BoardDeps {
  store: BoardStore;
  now: () => number;
  plans: Record<Plan, PlanLimits>;
  projectQuotaShare: number;
  variantCap: number;
  /** How long a browser session lasts after signing in. @default 12 hours */
  sessionMs?: number;
}

/** Cards one bulk status change may name (two pages of the cards list). */
const BULK_MAX = 100;
/** Routes open without a token: the sign-in form and the static assets. */
const PUBLIC = { config: { public: true } };

/** The board under /board: sign-in, accounts, a project's cards, a card, a variant, status changes. */
export function registerBoard(app: FastifyInstance, deps: BoardDeps): void {
  const { store, now } = deps;
  const auth = createBoardAuth(store, now, deps.sessionMs ?? 12 * HOUR);
  const throttle = createSignInThrottle({ now });
  /** 429 with Retry-After while the address has spent its sign-in attempts. */
  const throttled = (req: FastifyRequest, reply: FastifyReply, body: (text: string) => string) => {
    const wait = throttle.retryAfter(req.socket.remoteAddress);
    if (wait === 0) return undefined;
    const text = `Too many wrong tokens from your address; try again in ${wait} s.`;
    return send(reply.header('retry-after', wait), 429, body(text));
  };

  app.register(
    async (board) => {
      board.addHook('onSend', async (_req, reply, payload) => {
        secureHeaders(reply);
        return payload;
      });
      board.addHook('onRequest', async (req, reply) => {
        if ((req.routeOptions.config as { public?: boolean } | undefined)?.public) return;
        if (req.headers.authorization !== undefined) {
          const limited = throttled(req, reply, (text) => messagePage('Slow down', text));
          if (limited) return limited;
        }
        const viewer = await auth.viewer(req);
        if (viewer && viewer !== 'invalid') {
          viewers.set(req, viewer);
          return;
        }
        if (viewer === 'invalid') throttle.failed(req.socket.remoteAddress);
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
        if (err instanceof StoreUnavailableError) {
          reply.header('retry-after', err.retryAfter);
          const text = `The database is unavailable; try again in ${err.retryAfter} s.`;
          return send(reply, 503, messagePage('Unavailable', text, csrfOf(req)));
        }
        console.error('svc-server: board error', err);
        return send(reply, 500, messagePage('Error', 'The board could not answer.', csrfOf(req)));
      });

      for (const asset of [STYLESHEET, FAVICON]) {
        board.get(asset.path.slice('/board'.length), PUBLIC, (_req, reply) =>
          reply
            .header('cache-control', 'public, max-age=31536000, immutable')
            .type(asset.type)
            .send(asset.body),
        );
      }

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
        const limited = throttled(req, reply, (text) => loginPage(next, text));
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

      board.get('/', async (req, reply) => {
        const cursor = parseIdPage(new URL(req.url, 'http://x').searchParams);
        const { rows, more } = await store.overview(Math.floor(now() / DAY), {
          ...cursor,
          limit: ACCOUNTS_PER_PAGE,
          projectsPerAccount: PROJECTS_PER_ACCOUNT,
        });
        const paging = { after: !!cursor.after, before: !!cursor.before, more };
        return send(reply, 200, overviewPage(rows, paging, deps, csrfOf(req)));
      });

      board.get<{ Params: { account: string } }>('/accounts/:account', async (req, reply) => {
        const accountId = idOf(req.params.account);
        const cursor = parseIdPage(new URL(req.url, 'http://x').searchParams);
        const account =
          accountId &&
          (await store.getAccount(accountId, Math.floor(now() / DAY), {
            ...cursor,
            limit: PROJECTS_PER_PAGE,
          }));
        if (!account) return notFound(req, reply);
        const paging = { after: !!cursor.after, before: !!cursor.before, more: account.more };
        return send(reply, 200, accountPage(account, paging, deps, csrfOf(req)));
      });

      board.get<{ Params: { project: string } }>('/projects/:project', (req, reply) =>
        projectPage(req, reply, deps),
      );

      registerCardRoutes(board, deps);

      // The list's bulk status form: same-origin, with the session's form token (403 and nothing
      // changed otherwise), recorded under the admin token's name; then back to the same view.
      board.post<{ Params: { project: string } }>(
        '/projects/:project/cards/status',
        async (req, reply) => {
          const viewer = viewers.get(req)!;
          const form = formOf(req);
          if (!formAllowed(req, viewer, form.get('csrf'))) return refused(req, reply);
          const projectId = idOf(req.params.project);
          const project = projectId && (await store.getProject(projectId, Math.floor(now() / DAY)));
          if (!project) return notFound(req, reply);
          const status = statusOf(form.get('status'));
          const ids = form.getAll('card').map(idOf);
          if (ids.some((id) => id === undefined) || ids.length > BULK_MAX) {
            throw new BadQuery(`Choose at most ${BULK_MAX} cards by their ids.`);
          }
          const found =
            ids.length === 0
              ? []
              : await store.setCardStatus({
                  cardIds: ids as number[],
                  projectId: project.id,
                  status,
                  actor: viewer.name,
                  at: now(),
                  env: resolvedIn(status, form.get('env')),
                });
          const back = safeNext(form.get('back'));
          const home = `/board/projects/${project.id}`;
          const to = back === home || back.startsWith(`${home}?`) ? back : home;
          return reply.redirect(withChange(to, status, found), 303);
        },
      );
    },
    { prefix: '/board' },
  );
}
