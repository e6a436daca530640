import type { FastifyInstance } from 'fastify';
import { formAllowed } from './auth.ts';
import { withChange } from './changes.ts';
import { resolvedIn } from './environment.ts';
import { DAY } from './format.ts';
import { safeNext } from './pages/login.ts';
import {
  ACCOUNTS_PER_PAGE,
  accountPage,
  overviewPage,
  PROJECTS_PER_ACCOUNT,
  PROJECTS_PER_PAGE,
} from './pages/overview.ts';
import { projectPage } from './project-page.ts';
import { BadQuery, parseIdPage } from './query.ts';
import { csrfOf, formOf, idOf, notFound, refused, send, statusOf, viewers } from './reply.ts';
import type { BoardDeps } from './deps.ts';

/** Cards one bulk status change may name (two pages of the cards list). */
const BULK_MAX = 100;

/** The accounts overview, an account's projects, a project's cards and their bulk status form. */
export function registerProjectRoutes(board: FastifyInstance, deps: BoardDeps): void {
  const { store, now } = deps;
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
      // Back to the same view, which confirms what the change did.
      return reply.redirect(withChange(to, status, found), 303);
    },
  );
}
