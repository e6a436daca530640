import type { BatchView, StoredCounters, VariantState } from '../../accept/index.ts';
import type { PgIngestCache, Pinned } from './ingest-cache.ts';
import type { Misses } from './ingest-read.ts';

/** Stands in for counters this instance does not know: the pass is decided again once read. */
const UNKNOWN: StoredCounters = {
  projectState: 'active',
  bucket: null,
  accountUsage: 0,
  projectUsage: 0,
  activeProjects: 1,
};

/**
 * The batch's view of the committed state, from what this instance knows (`ingest-cache.ts`).
 * What it does not know is noted in `misses` and answered as absent; the port then reads it and
 * decides the batch again, so no decision that saw a stand-in is ever written.
 */
export function pgView(
  cache: PgIngestCache,
  pinned: Pinned,
  misses: Misses,
  lists: Map<number, VariantState[]>,
): BatchView {
  const get: PgIngestCache['get'] = (name, key) => cache.get(name, key, pinned);
  return {
    counters(accountId, projectId, day) {
      const project = get('projects', String(projectId));
      const accountUsage = get('accountUsage', `${accountId}:${day}`);
      const projectUsage = get('projectUsage', `${projectId}:${day}`);
      const active = get('active', String(accountId));
      if (
        !project ||
        accountUsage === undefined ||
        projectUsage === undefined ||
        active === undefined
      ) {
        misses.projects.add(projectId);
        return UNKNOWN;
      }
      return {
        projectState: project.state,
        bucket: project.bucket,
        accountUsage,
        projectUsage,
        activeProjects: active,
      };
    },
    cardByTitle(projectId, title) {
      const id = get('titles', `${projectId}\0${title}`);
      if (id === undefined) misses.cards = true;
      return id == null ? null : cardState(id);
    },
    cardByDescription(projectId, hash, description) {
      const known = get('descriptions', `${projectId}\0${hash}`);
      if (known === undefined || known.text !== description) {
        misses.cards = true;
        return null;
      }
      return known.card === null ? null : cardState(known.card);
    },
    variantId(cardId, identity) {
      const id = get('variants', `${cardId}\0${identity}`);
      if (id === undefined) misses.variants.set(`${cardId}\0${identity}`, [cardId, identity]);
      return id ?? null;
    },
    namedCount: (cardId) => {
      const card = get('cards', String(cardId));
      if (!card) misses.cards = true;
      return card?.named ?? 0;
    },
    releaseSeen(projectId, name) {
      const key = `${projectId}\0${name}`;
      const seen = get('releases', key);
      if (seen === undefined) misses.releases.set(key, [projectId, name]);
      return seen ?? null;
    },
    namedVariants(cardId) {
      const list = lists.get(cardId);
      if (!list) misses.lists.add(cardId);
      return list ?? [];
    },
  };

  function cardState(id: number) {
    const card = get('cards', String(id));
    if (!card) misses.cards = true;
    return card ? card.state : null;
  }
}
