import type { FastifyInstance, FastifyReply } from 'fastify';
import type { BoardStore } from '../store/board-types.ts';
import type { SourceMapStore } from '../store/sourcemap-types.ts';
import { formAllowed } from './auth.ts';
import { cardPageOf } from './card-page.ts';
import { releaseOf, resolvedIn } from './environment.ts';
import { DAY } from './format.ts';
import { registerRawRoutes } from './mapped.ts';
import { variantPage } from './pages/card.ts';
import { HISTORY_PER_PAGE, historyPage } from './pages/history.ts';
import { parseIdPage } from './query.ts';
import { csrfOf, formOf, idOf, notFound, refused, send, statusOf, viewers } from './reply.ts';

type CardParams = { project: string; card: string };

/**
 * A card's routes under the board: its page, its history pages, a variant's page, the whole
 * description and a variant's whole body as plain text, and the status form's POST.
 */
export function registerCardRoutes(
  board: FastifyInstance,
  deps: { store: BoardStore; now: () => number; variantCap: number; sourceMaps?: SourceMapStore },
): void {
  const { store, now, sourceMaps } = deps;
  const base = '/projects/:project/cards/:card';

  async function loadCard(params: CardParams) {
    const day = Math.floor(now() / DAY);
    const projectId = idOf(params.project);
    const cardId = idOf(params.card);
    if (!projectId || !cardId) return undefined;
    const project = await store.getProject(projectId, day);
    const card = project && (await store.getCard(projectId, cardId, day));
    return project && card ? { project, card } : undefined;
  }
  /** Report text as it was sent: `text/plain` (with nosniff and the board's CSP, never markup). */
  const text = (reply: FastifyReply, body: string) =>
    reply.type('text/plain; charset=utf-8').send(body);

  board.get<{ Params: CardParams }>(base, async (req, reply) => {
    const found = await loadCard(req.params);
    if (!found) return notFound(req, reply);
    return cardPageOf(req, reply, found, deps);
  });

  board.get<{ Params: CardParams }>(`${base}/history`, async (req, reply) => {
    const { before } = parseIdPage(new URL(req.url, 'http://x').searchParams);
    const found = await loadCard(req.params);
    if (!found) return notFound(req, reply);
    const events = await store.cardHistory(found.card.id, HISTORY_PER_PAGE + 1, before);
    const paging = { before: before !== undefined, more: events.length > HISTORY_PER_PAGE };
    const shown = events.slice(0, HISTORY_PER_PAGE);
    const body = historyPage(found.project, found.card, shown, paging, now(), csrfOf(req));
    return send(reply, 200, body);
  });

  board.get<{ Params: CardParams }>(`${base}/description.txt`, async (req, reply) => {
    const found = await loadCard(req.params);
    if (!found) return notFound(req, reply);
    return text(reply, found.card.description ?? '');
  });

  const variantOf = async (params: CardParams & { variant: string }) => {
    const found = await loadCard(params);
    const variantId = idOf(params.variant);
    const variant = found && variantId && (await store.getVariant(found.card.id, variantId));
    return found && variant && !variant.aggregate ? { ...found, variant } : undefined;
  };
  board.get<{ Params: CardParams & { variant: string } }>(
    `${base}/variants/:variant`,
    async (req, reply) => {
      const found = await variantOf(req.params);
      if (!found) return notFound(req, reply);
      const { project, card, variant } = found;
      return send(reply, 200, variantPage(project, card, variant, now(), csrfOf(req)));
    },
  );
  board.get<{ Params: CardParams & { variant: string } }>(
    `${base}/variants/:variant/body.txt`,
    async (req, reply) => {
      const found = await variantOf(req.params);
      if (!found) return notFound(req, reply);
      return text(reply, found.variant.description ?? '');
    },
  );

  if (sourceMaps) registerRawRoutes(board, base, { sourceMaps, loadCard, variantOf });

  // A status change: same-origin, with the session's form token (403 and nothing changed
  // otherwise), recorded under the admin token's name; then back to the card.
  board.post<{ Params: CardParams }>(`${base}/status`, async (req, reply) => {
    const viewer = viewers.get(req)!;
    const form = formOf(req);
    if (!formAllowed(req, viewer, form.get('csrf'))) return refused(req, reply);
    const found = await loadCard(req.params);
    if (!found) return notFound(req, reply);
    const status = statusOf(form.get('status'));
    const env = resolvedIn(status, form.get('env'));
    await store.setCardStatus({
      cardIds: [found.card.id],
      projectId: found.project.id,
      status,
      actor: viewer.name,
      at: now(),
      env,
      release: releaseOf(status, form.get('release')),
    });
    const back = new URLSearchParams(env === undefined ? {} : { env });
    const card = `/board/projects/${found.project.id}/cards/${found.card.id}`;
    return reply.redirect(env === undefined ? card : `${card}?${back}`, 303);
  });
}
