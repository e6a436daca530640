import type { FastifyReply, FastifyRequest } from 'fastify';
import { newestRelease } from '../accept/index.ts';
import type { BoardCard, BoardProjectPage, BoardStore } from '../store/board-types.ts';
import type { SourceMapStore } from '../store/sourcemap-types.ts';
import { viewedEnv } from './environment.ts';
import { HOUR } from './format.ts';
import { mappedOf } from './mapped.ts';
import { cardPage, HISTORY_ON_CARD } from './pages/card.ts';
import { csrfOf, send } from './reply.ts';

/** Characters of each variant body the card page reads (the variant's page reads it whole). */
const VARIANT_BODY_CHARS = 2048;
/** Releases "the current release" is chosen from, and those offered to resolve in. */
const RECENT_RELEASES = 100;
const OFFERED_RELEASES = 20;

/**
 * `GET /board/projects/:project/cards/:card`: the card in the environment viewed (its counts,
 * first and last seen and events per hour there), its environments, variants and history, and
 * the releases it can be resolved in.
 */
export async function cardPageOf(
  req: FastifyRequest,
  reply: FastifyReply,
  found: { project: BoardProjectPage; card: BoardCard },
  deps: { store: BoardStore; now: () => number; variantCap: number; sourceMaps?: SourceMapStore },
) {
  const { store, now, sourceMaps } = deps;
  const { project, card } = found;
  const env = viewedEnv(req, reply, new URL(req.url, 'http://x').searchParams.get('env'));
  const lastHour = Math.floor(now() / HOUR);
  const [variants, perHour, history, environments, releases, mapped] = await Promise.all([
    store.listVariants(card.id, VARIANT_BODY_CHARS),
    store.cardEnvHours(card.id, env, lastHour - 23, lastHour),
    store.cardHistory(card.id, HISTORY_ON_CARD + 1),
    store.cardEnvironments(card.id),
    store.listReleases({ projectId: project.id }, RECENT_RELEASES),
    sourceMaps && mappedOf(sourceMaps, project.id, card),
  ]);
  const opts = {
    now: now(),
    variantCap: deps.variantCap,
    csrf: csrfOf(req),
    env,
    environments,
    releases: releases.slice(0, OFFERED_RELEASES),
    currentRelease: newestRelease([...releases].reverse()),
    mapped,
  };
  const hours = { perHour, lastHour };
  return send(reply, 200, cardPage(project, card, variants, hours, history, opts));
}
