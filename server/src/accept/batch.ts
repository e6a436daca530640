import { admit, utcDay } from './admit.ts';
import {
  type BatchConfig,
  type BatchView,
  type BatchWrites,
  type CardInsert,
  type Decided,
  type EnvCount,
  PENDING_BASE,
  type ReleaseSighting,
} from './batch-types.ts';
import { createBatchVariants } from './batch-variants.ts';
import { descriptionHash, type FirstSeen, fold, newCardState } from './fold.ts';
import { environmentOf, releaseOf } from './releases.ts';
import type { AuthKey } from '../domain/types.ts';
import type { BucketState, CardState, CounterRead, Regression, TaskReport } from './types.ts';

/** A card as the batch holds it: one object per card, however the reports found it. */
interface WorkCard {
  ref: number;
  projectId: number;
  state: CardState;
  insert?: CardInsert;
  changed: boolean;
  tagsChanged: boolean;
}

/**
 * The reports of one batch decided one after another, on the store's committed state (`view`)
 * and on what the batch's own earlier reports changed: counters (state, daily quota, burst bucket;
 * `admit`), the matching card (title first, then description; `fold`), variants, notices and
 * quota warnings. `writes()` then gives every row to write, each once. Pure: no I/O and no clock.
 */
export function createBatch(config: BatchConfig, view: BatchView) {
  const buckets = new Map<number, BucketState | null>();
  const spent = new Map<number, BucketState>();
  const states = new Map<number, CounterRead['projectState']>();
  const active = new Map<number, number>();
  const totals = new Map<string, number>();
  const usage = new Map<string, [number, number, number, number]>();
  const cards = new Map<number, WorkCard>();
  const byTitle = new Map<string, WorkCard | null>();
  const byDescription = new Map<string, WorkCard | null>();
  const inserted: WorkCard[] = [];
  const regressions: { id: number; regression: Regression }[] = [];
  const notices: BatchWrites['notices'] = [];
  const occurrences = new Map<string, BatchWrites['occurrences'][number]>();
  const warnings: BatchWrites['warnings'] = [];
  const variants = createBatchVariants(view, config.variantCap);
  const envCounts = new Map<string, EnvCount>();
  /** `projectId\0release` -> its place among the releases this batch saw first (after all stored). */
  const releases = new Map<string, number>();
  const releaseSightings: ReleaseSighting[] = [];
  let nextCard = PENDING_BASE;

  const counters = (key: AuthKey, day: number): CounterRead => {
    const accKey = `${key.accountId}:${day}`;
    const projKey = `${accKey}:${key.projectId}`;
    if (!totals.has(projKey)) {
      const stored = view.counters(key.accountId, key.projectId, day);
      if (!states.has(key.projectId)) {
        states.set(key.projectId, stored.projectState);
        buckets.set(key.projectId, stored.bucket);
      }
      if (!active.has(key.accountId)) active.set(key.accountId, stored.activeProjects);
      if (!totals.has(accKey)) totals.set(accKey, stored.accountUsage);
      totals.set(projKey, stored.projectUsage);
    }
    return {
      plan: key.plan,
      projectState: states.get(key.projectId)!,
      bucket: buckets.get(key.projectId)!,
      accountUsage: totals.get(accKey)!,
      projectUsage: totals.get(projKey)!,
      activeProjects: active.get(key.accountId)!,
    };
  };

  const stored = (projectId: number, state: CardState | null): WorkCard | null => {
    if (!state) return null;
    let card = cards.get(state.id);
    if (!card) {
      card = { ref: state.id, projectId, state: { ...state }, changed: false, tagsChanged: false };
      cards.set(state.id, card);
    }
    return card;
  };

  /** Title first (a stored card, then one this batch made), then the non-blank description. */
  const findCard = (projectId: number, report: TaskReport): WorkCard | null => {
    const titleKey = `${projectId}\0${report.title}`;
    let card = byTitle.get(titleKey);
    if (card === undefined) {
      card = stored(projectId, view.cardByTitle(projectId, report.title));
      byTitle.set(titleKey, card);
    }
    if (card) return card;
    const hash = descriptionHash(report);
    if (hash === null) return null;
    const descKey = `${projectId}\0${hash}\0${report.description}`;
    card = byDescription.get(descKey);
    if (card === undefined) {
      card = stored(projectId, view.cardByDescription(projectId, hash, report.description!));
      byDescription.set(descKey, card);
    }
    return card;
  };

  /** Records the report's release; the order a card resolved in a release is compared by. */
  const sightRelease = (projectId: number, report: TaskReport, at: number): FirstSeen => {
    const name = releaseOf(report.tags);
    if (name !== null && !releases.has(`${projectId}\0${name}`)) {
      releases.set(`${projectId}\0${name}`, PENDING_BASE + releases.size);
      releaseSightings.push({ projectId, name, at });
    }
    return (release) =>
      view.releaseSeen(projectId, release) ?? releases.get(`${projectId}\0${release}`) ?? null;
  };

  const countEnv = (ref: number, report: TaskReport, at: number) => {
    const env = environmentOf(report.tags);
    const counted = envCounts.get(`${ref}\0${env}`);
    if (counted) {
      counted.count += 1;
      counted.lastSeenAt = Math.max(counted.lastSeenAt, at);
    } else {
      envCounts.set(`${ref}\0${env}`, {
        cardRef: ref,
        env,
        count: 1,
        firstSeenAt: at,
        lastSeenAt: at,
      });
    }
  };

  const decide = (key: AuthKey, report: TaskReport, now: number): Decided => {
    const day = utcDay(now);
    const read = counters(key, day);
    const admission = admit(config, read, now);
    if (admission.decision.kind !== 'admitted') return { decision: admission.decision };
    const { bucket, usageDay, warnings: crossed } = admission.counters!;
    buckets.set(key.projectId, bucket);
    spent.set(key.projectId, bucket);
    totals.set(`${key.accountId}:${day}`, read.accountUsage + 1);
    totals.set(`${key.accountId}:${day}:${key.projectId}`, read.projectUsage + 1);
    const usageKey = `${key.accountId}:${usageDay}:${key.projectId}`;
    const row = usage.get(usageKey);
    if (row) row[3] += 1;
    else usage.set(usageKey, [key.accountId, usageDay, key.projectId, 1]);
    if (crossed.length > 0) warnings.push({ accountId: key.accountId, warnings: crossed });

    let card = findCard(key.projectId, report);
    const firstSeen = sightRelease(key.projectId, report, now);
    const folded = fold(config, card?.state ?? null, report, now, firstSeen);
    const write = folded.writes.card;
    if (write.kind === 'insert') {
      const ref = nextCard++;
      const insert: CardInsert = { ref, projectId: key.projectId, card: write.card };
      const c = write.card;
      card = {
        ref,
        projectId: key.projectId,
        insert,
        changed: false,
        tagsChanged: false,
        state: newCardState(ref, c),
      };
      cards.set(ref, card);
      inserted.push(card);
      byTitle.set(`${key.projectId}\0${c.title}`, card);
      if (c.descriptionHash !== null) {
        const descKey = `${key.projectId}\0${c.descriptionHash}\0${c.description}`;
        if (!byDescription.get(descKey)) byDescription.set(descKey, card);
      }
    } else {
      const u = write.card;
      const state = card!.state;
      state.occurrenceCount = u.occurrenceCount;
      state.lastSeenAt = u.lastSeenAt;
      state.usageDay = u.usageDay;
      state.usageCount = u.usageCount;
      if (u.tags) {
        state.tags = u.tags;
        card!.tagsChanged = true;
      }
      if (u.regression) {
        state.status = u.regression.to;
        state.regressions = u.regression.regressions;
        state.resolvedEnv = null;
        state.resolvedRelease = null;
        regressions.push({ id: card!.ref, regression: u.regression });
      }
      card!.changed = true;
    }
    const work = card!;
    countEnv(work.ref, report, now);
    variants.record(work.ref, work.insert !== undefined, folded.writes.variant);
    if (folded.notice) {
      notices.push({ projectId: key.projectId, cardRef: work.ref, notice: folded.notice, at: now });
    }
    countOccurrence(occurrences, key.projectId, work.ref, environmentOf(report.tags), now);
    return {
      decision: { kind: folded.kind, rate: admission.decision.rate },
      cardRef: work.ref,
      card: { ...work.state },
      insert: work.insert,
      warnings: crossed.length > 0 ? crossed : undefined,
    };
  };

  const writes = (): BatchWrites => {
    const v = variants.writes();
    return {
      buckets: spent,
      usage: [...usage.values()],
      cardInserts: inserted.map(({ insert, state }) => ({
        ...insert!,
        card: {
          ...insert!.card,
          tags: state.tags as string[],
          occurrenceCount: state.occurrenceCount,
          lastSeenAt: state.lastSeenAt,
          usageDay: state.usageDay!,
          usageCount: state.usageCount,
        },
      })),
      cardUpdates: [...cards.values()]
        .filter((c) => c.changed && !c.insert)
        .map(({ ref, state, tagsChanged }) => ({
          id: ref,
          occurrenceCount: state.occurrenceCount,
          lastSeenAt: state.lastSeenAt,
          tags: tagsChanged ? (state.tags as string[]) : null,
          usageDay: state.usageDay!,
          usageCount: state.usageCount,
        })),
      regressions,
      variantInserts: v.inserts,
      variantAdds: v.adds,
      variantRemovals: v.removals,
      variantFolds: v.folds,
      envCounts: [...envCounts.values()],
      releases: releaseSightings,
      notices,
      occurrences: [...occurrences.values()],
      warnings,
    };
  };

  return {
    decide,
    writes,
    /** Named variants the card holds after the batch, when the batch counted them. */
    namedAfter: variants.namedAfter,
  };
}

/** One more admitted report of the card in its environment and UTC minute. */
function countOccurrence(
  into: Map<string, BatchWrites['occurrences'][number]>,
  projectId: number,
  cardRef: number,
  environment: string | null,
  now: number,
): void {
  const minute = Math.floor(now / 60_000);
  const key = `${cardRef}\0${minute}\0${environment ?? ''}`;
  const seen = into.get(key);
  if (seen) seen.count += 1;
  else into.set(key, { projectId, cardRef, environment, minute, count: 1 });
}
