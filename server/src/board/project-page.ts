import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CardStatus } from '../accept/index.ts';
import type { BoardStore, FilteredCount } from '../store/board-types.ts';
import { changeOf, withoutChange } from './changes.ts';
import { viewedEnv } from './environment.ts';
import { DAY } from './format.ts';
import { cardsPage } from './pages/cards.ts';
import { changedNotice } from './pages/status.ts';
import { parseCardsQuery } from './query.ts';
import { csrfOf, idOf, notFound, send } from './reply.ts';
import { safeNext } from './pages/login.ts';

/**
 * `GET /board/projects/:project`: a page of the project's cards in the environment viewed, with
 * its environments, the status tabs' counts (the environment's, or filtered when the view has
 * filters) and the confirmation of a change just made.
 */
export async function projectPage(
  req: FastifyRequest<{ Params: { project: string } }>,
  reply: FastifyReply,
  deps: { store: BoardStore; now: () => number },
) {
  const { store, now } = deps;
  const projectId = idOf(req.params.project);
  const project = projectId && (await store.getProject(projectId, Math.floor(now() / DAY)));
  if (!project) return notFound(req, reply);
  const params = new URL(req.url, 'http://x').searchParams;
  const env = viewedEnv(req, reply, params.get('env'));
  const { view, query } = parseCardsQuery(params, env);
  const environments = await store.listEnvironments(project.id);
  const filtered = view.severity || view.priority || view.tag || view.q;
  const exact = environments.find((e) => e.name === env)?.statusCounts;
  // Filtered: the counts and the page are read at once (on PostgreSQL on two connections; a
  // search's matches are looked up by both).
  const [counts, page] = filtered
    ? await Promise.all([store.countCards(project.id, query), store.listCards(project.id, query)])
    : [
        Object.fromEntries(
          Object.keys(project.statusCounts).map((s) => [
            s,
            { count: exact?.[s as CardStatus] ?? 0, atLeast: false },
          ]),
        ) as Record<CardStatus, FilteredCount>,
        undefined,
      ];
  // A status none of the environment's cards has (under the filters) shows none, and needs no
  // walk of an index when unfiltered (filtered, a walk that stopped would offer to go on).
  const none = query.statuses?.every((s) => counts[s].count === 0 && !counts[s].atLeast);
  const result = none
    ? { cards: [], more: false }
    : (page ?? (await store.listCards(project.id, query)));
  const here = withoutChange(safeNext(req.url));
  const change = changeOf(params);
  const paging = { after: !!query.after, before: !!query.before, here };
  return send(
    reply,
    200,
    cardsPage(project, view, result, {
      environments,
      counts,
      paging,
      now: now(),
      csrf: csrfOf(req),
      notice: change && changedNotice(change, env),
    }),
  );
}
