import type Database from 'better-sqlite3';
import {
  type BatchView,
  type BucketState,
  type CardState,
  createAcceptance,
  createBatch,
} from '../../accept/index.ts';
import { groupCommit } from './batch.ts';
import { createIngestCaches, memo } from './ingest-cache.ts';
import { prepareIngest } from './ingest-queries.ts';
import { createSqliteIngestWrites } from './ingest-writes.ts';
import { outcomeOf, type PendingOutcome } from '../outcomes.ts';
import type { CardHead } from '../rows.ts';
import type { AuthKey, IngestConfig, IngestOutcome, Plan, TaskReport } from '../types.ts';

/**
 * The embedded store's port to the batch decision of `../accept`: the view of the committed state
 * a batch decides on (memoised reads, kept across batches in byte-bounded caches: only this
 * process writes cards, variants and usage, so they stay exact) and the writes it then applies.
 * Reports of one event-loop turn are decided one after another inside one IMMEDIATE transaction
 * (`batch.ts`). Token buckets live in memory: exact within this process (the only ingesting one
 * per data dir); a restart refills them.
 */
export function createIngest(db: Database.Database, config: IngestConfig) {
  const acceptance = createAcceptance(config);
  const q = prepareIngest(db);
  const buckets = new Map<number, BucketState>();
  // Project states (changed by the admin CLI from another connection) are dropped whenever
  // `PRAGMA data_version` says someone else committed, on this store's own admin writes
  // (`invalidate`), and after a rolled-back batch.
  const cache = createIngestCaches(config.cacheBudgets);
  const writer = createSqliteIngestWrites(db, { q, cache, buckets });
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seenVersion = dataVersion.get();
  const invalidate = () => {
    cache.clear();
    writer.variants.invalidate();
  };
  const rollback = () => {
    writer.restoreBuckets();
    invalidate();
  };

  /** A card row without its description: this batch's, else the cached one, else read. */
  const head = (id: number, read?: CardHead): CardHead => {
    const cached = cache.cards.get(id);
    if (cached) return cached;
    const row = read ?? (q.headById.get(id) as CardHead);
    cache.cards.set(id, row);
    return row;
  };
  const view: BatchView = {
    counters: (accountId, projectId, day) => {
      const accKey = `${accountId}:${day}`;
      return {
        projectState: memo(cache.states, projectId, () => q.state.get(projectId)) as never,
        bucket: buckets.get(projectId) ?? null,
        accountUsage: memo(
          cache.totals,
          accKey,
          () => q.accountUsage.get(accountId, day) as number,
        ),
        projectUsage: memo(
          cache.totals,
          `${accKey}:${projectId}`,
          () => (q.projectUsage.get(accountId, day, projectId) as number) ?? 0,
        ),
        activeProjects: memo(
          cache.active,
          accountId,
          () => q.activeProjects.get(accountId) as number,
        ),
      };
    },
    cardByTitle: (projectId, title) => {
      const id = memo(
        cache.titles,
        `${projectId}\0${title}`,
        () => (q.idByTitle.get(projectId, title) as number | undefined) ?? null,
      );
      return id === null ? null : cardState(head(id));
    },
    cardByDescription: (projectId, hash, description) => {
      const read = q.byDescription.get(projectId, hash, description) as CardHead | undefined;
      return read ? cardState(head(read.id, read)) : null;
    },
    variantId: (cardId, identity) => writer.variants.variantId(cardId, identity),
    namedCount: (cardId) => writer.variants.namedCount(cardId),
    namedVariants: (cardId) => writer.variants.namedVariants(cardId),
    releaseSeen: releaseSeenOf(q, cache),
  };

  const begin = () => {
    const v = dataVersion.get();
    if (v !== seenVersion) {
      seenVersion = v;
      invalidate();
    }
    const batch = createBatch(config, view);
    const pending: PendingOutcome[] = [];
    return {
      run(key: AuthKey, report: TaskReport): IngestOutcome {
        const decided = batch.decide(key, report, config.now());
        const outcome = outcomeOf(decided, head, (id) => q.description.get(id) as string | null);
        if (outcome.pending) pending.push(outcome.pending);
        return outcome.outcome;
      },
      finish() {
        const ids = writer.write(batch.writes(), batch.namedAfter, config.now());
        for (const p of pending) p.settle(ids);
      },
    };
  };
  return {
    ingest: groupCommit(db, begin, rollback),
    invalidate,
    rateState: (projectId: number, plan: Plan) =>
      acceptance.rate(buckets.get(projectId) ?? null, plan, config.now()),
  };
}

/** A release's row id (its place in the order first seen), cached; null: never seen. */
const releaseSeenOf =
  (q: ReturnType<typeof prepareIngest>, cache: ReturnType<typeof createIngestCaches>) =>
  (projectId: number, name: string) =>
    memo(
      cache.releases,
      `${projectId}\0${name}`,
      () => (q.releaseSeen.get(projectId, name) as number | undefined) ?? null,
    );

/** Parsed tags per cached card row, so a hot card's tags are parsed once, not once a batch. */
const parsedTags = new WeakMap<CardHead, { json: string; tags: string[] }>();

export function cardState(row: CardHead): CardState {
  let tags = parsedTags.get(row);
  if (!tags || tags.json !== row.tags) {
    tags = { json: row.tags, tags: JSON.parse(row.tags) as string[] };
    parsedTags.set(row, tags);
  }
  return {
    id: row.id,
    status: row.status,
    regressions: row.regressions,
    tags: tags.tags,
    occurrenceCount: row.occurrence_count,
    lastSeenAt: row.last_seen_at,
    usageDay: row.usage_day,
    usageCount: row.usage_count,
    resolvedEnv: row.resolved_env,
    resolvedRelease: row.resolved_release,
  };
}
