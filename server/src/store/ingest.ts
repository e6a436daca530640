import type Database from 'better-sqlite3';
import {
  type AcceptConfig,
  type BucketState,
  type CardState,
  type CardWrite,
  type CounterRead,
  createAcceptance,
  descriptionHash,
  utcDay,
} from '../accept/index.ts';
import { groupCommit } from './batch.ts';
import { createIngestCaches, type IngestCacheBudgets, memo } from './ingest-cache.ts';
import { prepareIngest } from './ingest-queries.ts';
import { type CardHead, iso, toCard } from './rows.ts';
import type { AuthKey, IngestOutcome, Plan, TaskReport } from './types.ts';
import { createTriageWrites } from './triage-writes.ts';
import { createVariantRecorder } from './variants.ts';
import { createQuotaWarnings } from './warnings.ts';

export interface IngestConfig extends AcceptConfig {
  now: () => number;
  /** Byte budgets of the read caches. @default see IngestCacheBudgets */
  cacheBudgets?: IngestCacheBudgets;
}

const cardStateOf = (row: CardHead): CardState => ({
  id: row.id,
  status: row.status,
  regressions: row.regressions,
  tags: JSON.parse(row.tags) as string[],
  occurrenceCount: row.occurrence_count,
  lastSeenAt: row.last_seen_at,
  usageDay: row.usage_day,
  usageCount: row.usage_count,
});

/**
 * The embedded store's side of acceptance: reads the counters and the matching card, lets the
 * pure decision of `../accept` decide, and applies its writes. Reports of one event-loop turn are
 * decided one after another inside one IMMEDIATE transaction (see batch.ts); reads are memoised
 * and counters are written once at the batch's end. Token buckets live in memory: exact within
 * this process (the only ingesting one per data dir); a restart refills them.
 */
export function createIngest(db: Database.Database, config: IngestConfig) {
  const acceptance = createAcceptance(config);
  const q = prepareIngest(db);
  const variants = createVariantRecorder(db, config.variantCap);
  const warn = createQuotaWarnings(db);
  const triage = createTriageWrites(db);
  const buckets = new Map<number, BucketState>();
  /** Buckets as they were before the current batch, restored if it rolls back. */
  let bucketsBefore = new Map<number, BucketState | undefined>();
  const setBucket = (projectId: number, bucket: BucketState) => {
    if (!bucketsBefore.has(projectId)) bucketsBefore.set(projectId, buckets.get(projectId));
    buckets.set(projectId, bucket);
  };

  // Read caches, kept across batches and bounded by bytes: cards, variants and usage are written
  // only by this process's ingest, so they stay exact; project states (changed by the admin CLI
  // from another connection) are dropped whenever `PRAGMA data_version` says someone else
  // committed, on this store's own admin writes (`invalidate`), and after a rolled-back batch.
  const cache = createIngestCaches(config.cacheBudgets);
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seenVersion = dataVersion.get();
  const invalidate = () => {
    cache.clear();
    variants.invalidate();
  };
  const rollback = () => {
    for (const [projectId, bucket] of bucketsBefore) {
      if (bucket) buckets.set(projectId, bucket);
      else buckets.delete(projectId);
    }
    invalidate();
  };

  const begin = () => {
    const v = dataVersion.get();
    if (v !== seenVersion) {
      seenVersion = v;
      invalidate();
    }
    bucketsBefore = new Map();
    /** The cards this batch changed: one live object per card until they are written. */
    const dirty = new Map<number, CardHead>();
    const usage = pendingUsage();

    const flushCards = () => {
      for (const [id, row] of dirty) {
        q.touchCard.run(
          row.occurrence_count,
          row.last_seen_at,
          row.tags,
          row.usage_day,
          row.usage_count,
          id,
        );
      }
      dirty.clear();
    };
    // One object per card, however it was found: this batch's, the cached one, else the row read.
    const cardById = (id: number, read?: CardHead): CardHead => {
      const live = dirty.get(id) ?? cache.cards.get(id);
      if (live) return live;
      const row = read ?? (q.headById.get(id) as CardHead);
      cache.cards.set(id, row);
      return row;
    };
    const findCard = (projectId: number, report: TaskReport): CardHead | undefined => {
      const titleKey = `${projectId}\0${report.title}`;
      const id = memo(
        cache.titles,
        titleKey,
        () => (q.idByTitle.get(projectId, report.title) as number | undefined) ?? null,
      );
      if (id !== null) return cardById(id);
      const hash = descriptionHash(report);
      const read =
        hash === null
          ? undefined
          : (q.byDescription.get(projectId, hash, report.description) as CardHead | undefined);
      return read && cardById(read.id, read);
    };
    const applyCard = (projectId: number, found: CardHead | undefined, write: CardWrite) => {
      if (write.kind === 'update') {
        const c = write.card;
        const row = found!;
        row.occurrence_count = c.occurrenceCount;
        row.last_seen_at = c.lastSeenAt;
        if (c.tags) row.tags = JSON.stringify(c.tags);
        row.usage_day = c.usageDay;
        row.usage_count = c.usageCount;
        if (c.regression) {
          // Written at once (rare): the batch-end write of counters never touches the status.
          row.status = c.regression.to;
          row.regressions = c.regression.regressions;
          row.last_regressed_at = c.regression.at;
          triage.regress(row.id, c.regression);
        }
        return row;
      }
      const c = write.card;
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
          c.fileName,
          c.lineNumber,
          c.createdAt,
          c.lastSeenAt,
        ).lastInsertRowid,
      );
      cache.titles.set(`${projectId}\0${c.title}`, id);
      // Inserted with a count of 0; the counters are written with the other cards' at batch end
      // (the hourly trigger sees the rise).
      return {
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
      } satisfies CardHead;
    };

    const run = (key: AuthKey, report: TaskReport): IngestOutcome => {
      const now = config.now();
      const day = utcDay(now);
      const accKey = `${key.accountId}:${day}`;
      const projKey = `${accKey}:${key.projectId}`;
      const counters: CounterRead = {
        plan: key.plan,
        projectState: memo(cache.states, key.projectId, () =>
          q.state.get(key.projectId),
        ) as CounterRead['projectState'],
        bucket: buckets.get(key.projectId) ?? null,
        accountUsage: memo(
          cache.totals,
          accKey,
          () => q.accountUsage.get(key.accountId, day) as number,
        ),
        projectUsage: memo(
          cache.totals,
          projKey,
          () => (q.projectUsage.get(key.accountId, day, key.projectId) as number) ?? 0,
        ),
        activeProjects: memo(
          cache.active,
          key.accountId,
          () => q.activeProjects.get(key.accountId) as number,
        ),
      };
      const admission = acceptance.admit(counters, now);
      const { decision } = admission;
      if (decision.kind !== 'admitted') return decision;
      const writes = admission.counters!;
      setBucket(key.projectId, writes.bucket);
      cache.totals.set(accKey, counters.accountUsage + 1);
      cache.totals.set(projKey, counters.projectUsage + 1);
      usage.add(key.accountId, writes.usageDay, key.projectId);

      const found = findCard(key.projectId, report);
      const folded = acceptance.fold(found ? cardStateOf(found) : null, report, now);
      const row = applyCard(key.projectId, found, folded.writes.card);
      dirty.set(row.id, row);
      cache.cards.set(row.id, row); // re-measured: its tags may have grown
      variants.record(row.id, folded.writes.variant);
      if (folded.notice) triage.notice(key.projectId, row.id, folded.notice, now);

      let mailQueued = false;
      if (writes.warnings.length > 0) {
        flushCards(); // the warning names the top cards of the day: counts must be on disk
        mailQueued = warn(key.accountId, writes.warnings, iso(now));
      }
      const snapshot = { ...row }; // later reports in the batch move the live row on
      return {
        kind: folded.kind,
        // Read when the answer shows the card, after the commit: the description never changes.
        get card() {
          return toCard({
            ...snapshot,
            description: q.description.get(snapshot.id) as string | null,
          });
        },
        rate: decision.rate,
        mailQueued,
      };
    };

    const finish = () => {
      for (const [acc, d, proj, n] of usage.rows()) q.usageUp.run(acc, d, proj, n, n);
      flushCards();
      variants.flush();
    };
    return { run, finish };
  };

  return {
    ingest: groupCommit(db, begin, rollback),
    invalidate,
    rateState: (projectId: number, plan: Plan) =>
      acceptance.rate(buckets.get(projectId) ?? null, plan, config.now()),
  };
}

/** Usage increments of one batch, one row per account, day and project. */
function pendingUsage() {
  const rows = new Map<string, [number, number, number, number]>();
  return {
    add(accountId: number, day: number, projectId: number) {
      const k = `${accountId}:${day}:${projectId}`;
      const row = rows.get(k);
      if (row) row[3] += 1;
      else rows.set(k, [accountId, day, projectId, 1]);
    },
    rows: () => rows.values(),
  };
}
