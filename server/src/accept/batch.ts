import { admit, utcDay } from './admit.ts';
import { BatchCards } from './batch-cards.ts';
import { BatchCounters } from './batch-counters.ts';
import type { BatchConfig, BatchView, BatchWrites, Decided } from './batch-types.ts';
import { BatchReleases } from './batch-releases.ts';
import { BatchVariants } from './batch-variants.ts';
import { fold } from './fold.ts';
import { environmentOf } from './releases.ts';
import type { AuthKey } from '../domain/types.ts';
import type { TaskReport } from './types.ts';

/**
 * The reports of one batch decided one after another, on the store's committed state (`view`)
 * and on what the batch's own earlier reports changed: counters (state, daily quota, burst bucket;
 * `admit`; `batch-counters.ts`), the matching card (title first, then description; `fold`;
 * `batch-cards.ts`), variants (`batch-variants.ts`), notices and quota warnings. `writes()` then
 * gives every row to write, each once. Pure: no I/O and no clock.
 */
export function createBatch(config: BatchConfig, view: BatchView) {
  const counters = new BatchCounters(view);
  const cards = new BatchCards(view);
  const variants = new BatchVariants(view, config.variantCap);
  const releases = new BatchReleases(view);

  const decide = (key: AuthKey, report: TaskReport, now: number): Decided => {
    const day = utcDay(now);
    const read = counters.read(key, day);
    const admission = admit(config, read, now);
    if (admission.decision.kind !== 'admitted') return { decision: admission.decision };
    counters.spend(key, day, read, admission.counters!);
    const crossed = admission.counters!.warnings;

    const found = cards.find(key.projectId, report);
    const firstSeen = releases.sight(key.projectId, report, now);
    const folded = fold(config, found?.state ?? null, report, now, firstSeen);
    const write = folded.writes.card;
    let card = found!;
    if (write.kind === 'insert') card = cards.insert(key.projectId, write.card);
    else cards.update(card, write.card);
    variants.record(card.ref, card.insert !== undefined, folded.writes.variant);
    if (folded.notice) cards.notice(key.projectId, card, folded.notice, now);
    cards.occurrence(key.projectId, card, environmentOf(report.tags), now);
    return {
      decision: { kind: folded.kind, rate: admission.decision.rate },
      cardRef: card.ref,
      card: { ...card.state },
      insert: card.insert,
      warnings: crossed.length > 0 ? crossed : undefined,
    };
  };

  const writes = (): BatchWrites => {
    const v = variants.writes();
    const c = cards.writes();
    const n = counters.writes();
    return {
      buckets: n.buckets,
      usage: n.usage,
      cardInserts: c.cardInserts,
      cardUpdates: c.cardUpdates,
      regressions: c.regressions,
      variantInserts: v.inserts,
      variantAdds: v.adds,
      variantRemovals: v.removals,
      variantFolds: v.folds,
      envCounts: c.envCounts,
      releases: releases.writes(),
      notices: c.notices,
      occurrences: c.occurrences,
      warnings: n.warnings,
    };
  };

  return {
    decide,
    writes,
    /** Named variants the card holds after the batch, when the batch counted them. */
    namedAfter: variants.namedAfter,
  };
}
