import type Database from 'better-sqlite3';
import {
  type BatchWrites,
  type BucketState,
  PENDING_BASE,
  type QuotaWarning,
} from '../../accept/index.ts';
import type { createIngestCaches } from './ingest-cache.ts';
import type { prepareIngest } from './ingest-queries.ts';
import type { WriteResult } from '../outcomes.ts';
import { type CardHead, iso } from '../rows.ts';
import { createAlertWrites } from './alert-writes.ts';
import { createTriageWrites } from './triage-writes.ts';
import { SqliteVariants } from './variants.ts';
import { createQuotaWarnings } from './warnings.ts';

type Queries = ReturnType<typeof prepareIngest>;
type Caches = ReturnType<typeof createIngestCaches>;

/**
 * Applies one batch's writes (`BatchWrites`) inside its transaction, and brings the read caches
 * and the in-memory buckets along: usage rows, new cards (with their counters after the batch),
 * stored cards' counters, regressions, variants, notices (for digests and alerts), alert counts,
 * then quota warnings (after the cards, since the mail names the day's top cards). `restoreBuckets` undoes the bucket changes of a
 * batch whose transaction rolled back.
 */
export function createSqliteIngestWrites(
  db: Database.Database,
  state: {
    q: Queries;
    cache: Caches;
    buckets: Map<number, BucketState>;
  },
) {
  const { q, cache, buckets } = state;
  const variants = new SqliteVariants(db);
  const triage = createTriageWrites(db);
  const warn = createQuotaWarnings(db);
  const alerts = createAlertWrites(db);
  let bucketsBefore = new Map<number, BucketState | undefined>();

  return {
    variants,
    restoreBuckets() {
      for (const [projectId, bucket] of bucketsBefore) {
        if (bucket) buckets.set(projectId, bucket);
        else buckets.delete(projectId);
      }
      bucketsBefore = new Map();
    },
    write(
      w: BatchWrites,
      namedAfter: (cardRef: number) => number | undefined,
      now: number,
    ): WriteResult {
      bucketsBefore = new Map();
      for (const [projectId, bucket] of w.buckets) {
        bucketsBefore.set(projectId, buckets.get(projectId));
        buckets.set(projectId, bucket);
      }
      writeUsage(q, cache, w);
      const ids = insertCards(q, cache, w);
      updateCards(q, cache, w);
      writeRegressions(triage, cache, w);
      const idOf = (ref: number) => (ref >= PENDING_BASE ? ids.get(ref)! : ref);
      writeEnvsAndReleases(q, cache, w, idOf);
      variants.write(w, idOf, namedAfter);
      for (const n of w.notices) triage.notice(n.projectId, idOf(n.cardRef), n.notice, n.at);
      alerts.write(w, idOf);
      const mailed = new Set<QuotaWarning[]>();
      for (const { accountId, warnings } of w.warnings) {
        if (warn(accountId, warnings, iso(now))) mailed.add(warnings);
      }
      return { ids, mailed };
    },
  };
}

/** Usage rows, and the cached totals that are known. */
function writeUsage(q: Queries, cache: Caches, w: BatchWrites) {
  const addTotal = (key: string, n: number) => {
    const total = cache.totals.get(key);
    if (total !== undefined) cache.totals.set(key, total + n);
  };
  for (const [accountId, day, projectId, n] of w.usage) {
    q.usageUp.run(accountId, day, projectId, n, n);
    addTotal(`${accountId}:${day}`, n);
    addTotal(`${accountId}:${day}:${projectId}`, n);
  }
}

/** New cards with their counters after the batch, cached by title and id; ref -> id. */
function insertCards(q: Queries, cache: Caches, w: BatchWrites): Map<number, number> {
  const ids = new Map<number, number>();
  for (const { ref, projectId, card: c } of w.cardInserts) {
    const tags = JSON.stringify(c.tags);
    const id = Number(
      q.insertCard.run(
        projectId,
        c.title,
        c.description,
        c.descriptionHash,
        c.descriptionType,
        c.priority,
        c.severity,
        tags,
        c.status,
        c.occurrenceCount,
        c.fileName,
        c.lineNumber,
        c.createdAt,
        c.lastSeenAt,
        c.usageDay,
        c.usageCount,
      ).lastInsertRowid,
    );
    ids.set(ref, id);
    cache.titles.set(`${projectId}\0${c.title}`, id);
    cache.cards.set(id, {
      id,
      project_id: projectId,
      title: c.title,
      description_type: c.descriptionType,
      priority: c.priority,
      severity: c.severity,
      tags,
      status: c.status,
      occurrence_count: c.occurrenceCount,
      file_name: c.fileName,
      line_number: c.lineNumber,
      created_at: c.createdAt,
      last_seen_at: c.lastSeenAt,
      usage_day: c.usageDay,
      usage_count: c.usageCount,
      regressions: 0,
      last_regressed_at: null,
      resolved_env: null,
      resolved_release: null,
    } satisfies CardHead);
  }
  return ids;
}

/** Stored cards' counters (and tags, when they changed), in the table and the cached rows. */
function updateCards(q: Queries, cache: Caches, w: BatchWrites) {
  for (const u of w.cardUpdates) {
    const row = cache.cards.get(u.id);
    const tags = u.tags ? JSON.stringify(u.tags) : (row?.tags ?? null);
    if (tags === null)
      q.touchCounters.run(u.occurrenceCount, u.lastSeenAt, u.usageDay, u.usageCount, u.id);
    else q.touchCard.run(u.occurrenceCount, u.lastSeenAt, tags, u.usageDay, u.usageCount, u.id);
    if (row) {
      row.occurrence_count = u.occurrenceCount;
      row.last_seen_at = u.lastSeenAt;
      row.usage_day = u.usageDay;
      row.usage_count = u.usageCount;
      if (tags !== null) row.tags = tags;
      cache.cards.set(u.id, row); // re-measured: its tags may have grown
    }
  }
}

/** Cards reopened from `done`: the status, count and history row; the cached rows follow. */
function writeRegressions(
  triage: ReturnType<typeof createTriageWrites>,
  cache: Caches,
  w: BatchWrites,
) {
  for (const { id, regression: r } of w.regressions) {
    triage.regress(id, r);
    const row = cache.cards.get(id);
    if (row) {
      row.status = r.to;
      row.regressions = r.regressions;
      row.last_regressed_at = r.at;
      row.resolved_env = null;
      row.resolved_release = null;
    }
  }
}

/** Each card's reports per environment, and releases not stored yet (their row ids cached). */
function writeEnvsAndReleases(
  q: Queries,
  cache: Caches,
  w: BatchWrites,
  idOf: (ref: number) => number,
) {
  for (const e of w.envCounts) {
    q.envUp.run(e.env, e.count, e.firstSeenAt, e.lastSeenAt, idOf(e.cardRef));
  }
  for (const r of w.releases) {
    const key = `${r.projectId}\0${r.name}`;
    if (cache.releases.get(key) != null) continue;
    q.releaseUp.run(r.projectId, r.name, r.at);
    cache.releases.set(key, q.releaseSeen.get(r.projectId, r.name) as number);
  }
}
