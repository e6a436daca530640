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
import { prepareIngest } from './ingest-queries.ts';
import { iso, toCard, type CardRow } from './rows.ts';
import type { AuthKey, IngestOutcome, Plan, TaskReport } from './types.ts';
import { createVariantRecorder } from './variants.ts';
import { createQuotaWarnings } from './warnings.ts';

export interface IngestConfig extends AcceptConfig {
  now: () => number;
}

const cardStateOf = (row: CardRow): CardState => ({
  id: row.id,
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
 * for the batch and counters are written once at its end. Token buckets live in memory: exact
 * within this process (the only ingesting one per data dir); a restart refills them.
 */
export function createIngest(db: Database.Database, config: IngestConfig) {
  const acceptance = createAcceptance(config);
  const q = prepareIngest(db);
  const variants = createVariantRecorder(db, config.variantCap);
  const warn = createQuotaWarnings(db);
  const buckets = new Map<number, BucketState>();
  /** Buckets as they were before the current batch, restored if it rolls back. */
  let bucketsBefore = new Map<number, BucketState | undefined>();
  const setBucket = (projectId: number, bucket: BucketState) => {
    if (!bucketsBefore.has(projectId)) bucketsBefore.set(projectId, buckets.get(projectId));
    buckets.set(projectId, bucket);
  };
  const rollback = () => {
    for (const [projectId, bucket] of bucketsBefore) {
      if (bucket) buckets.set(projectId, bucket);
      else buckets.delete(projectId);
    }
    invalidate();
  };

  // Read caches, kept across batches: cards, variants and usage are written only by this
  // process's ingest, so they stay exact; project states (changed by the admin CLI from another
  // connection) are dropped whenever `PRAGMA data_version` says someone else committed, on this
  // store's own admin writes (`invalidate`), and after a rolled-back batch.
  const states = new Map<number, string>();
  const active = new Map<number, number>();
  const totals = new Map<string, number>();
  const cards = new Map<number, CardRow>();
  const byTitle = new Map<string, CardRow | undefined>();
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seenVersion = dataVersion.get();
  const invalidate = () => {
    for (const m of [states, active, totals, cards, byTitle]) m.clear();
    variants.invalidate();
  };

  const begin = () => {
    const v = dataVersion.get();
    if (v !== seenVersion || cards.size + byTitle.size + totals.size > 100_000) {
      seenVersion = v;
      invalidate();
    }
    bucketsBefore = new Map();
    const dirtyCards = new Map<number, CardRow>();
    const usage = new Map<string, [number, number, number, number]>();

    const memo = <K, V>(m: Map<K, V>, k: K, load: () => V): V => {
      if (m.has(k)) return m.get(k) as V;
      const v = load();
      m.set(k, v);
      return v;
    };
    const flushCards = () => {
      for (const [id, row] of dirtyCards) {
        q.touchCard.run(
          row.occurrence_count,
          row.last_seen_at,
          row.tags,
          row.usage_day,
          row.usage_count,
          id,
        );
      }
      dirtyCards.clear();
    };
    // One object per card within the batch, however it was found.
    const canonical = (r: CardRow | undefined) => r && (cards.get(r.id) ?? r);
    const findCard = (projectId: number, report: TaskReport): CardRow | undefined => {
      const titleKey = `${projectId}\0${report.title}`;
      const row = canonical(
        memo(byTitle, titleKey, () => q.byTitle.get(projectId, report.title) as CardRow),
      );
      if (row) return row;
      const hash = descriptionHash(report);
      return hash === null
        ? undefined
        : canonical(q.byDescription.get(projectId, hash, report.description) as CardRow);
    };
    const applyCard = (projectId: number, write: CardWrite): CardRow => {
      if (write.kind === 'update') {
        const c = write.card;
        const row = cards.get(c.id)!;
        row.occurrence_count = c.occurrenceCount;
        row.last_seen_at = c.lastSeenAt;
        if (c.tags) row.tags = JSON.stringify(c.tags);
        row.usage_day = c.usageDay;
        row.usage_count = c.usageCount;
        return row;
      }
      const c = write.card;
      const id = Number(
        q.insertCard.run(
          projectId,
          c.title,
          c.description,
          c.descriptionHash,
          c.descriptionType,
          c.priority,
          c.severity,
          JSON.stringify(c.tags),
          c.fileName,
          c.lineNumber,
          c.createdAt,
          c.lastSeenAt,
        ).lastInsertRowid,
      );
      const row = q.byId.get(id) as CardRow;
      // Counters are written with the other cards' at batch end (the hourly trigger sees the rise).
      row.occurrence_count = c.occurrenceCount;
      row.usage_day = c.usageDay;
      row.usage_count = c.usageCount;
      byTitle.set(`${projectId}\0${c.title}`, row);
      return row;
    };

    const run = (key: AuthKey, report: TaskReport): IngestOutcome => {
      const now = config.now();
      const day = utcDay(now);
      const accKey = `${key.accountId}:${day}`;
      const projKey = `${accKey}:${key.projectId}`;
      const counters: CounterRead = {
        plan: key.plan,
        projectState: memo(
          states,
          key.projectId,
          () => q.state.get(key.projectId) as string,
        ) as CounterRead['projectState'],
        bucket: buckets.get(key.projectId) ?? null,
        accountUsage: memo(totals, accKey, () => q.accountUsage.get(key.accountId, day) as number),
        projectUsage: memo(
          totals,
          projKey,
          () => (q.projectUsage.get(key.accountId, day, key.projectId) as number) ?? 0,
        ),
        activeProjects: memo(
          active,
          key.accountId,
          () => q.activeProjects.get(key.accountId) as number,
        ),
      };
      const admission = acceptance.admit(counters, now);
      const { decision } = admission;
      if (decision.kind !== 'admitted') return decision;
      const writes = admission.counters!;
      setBucket(key.projectId, writes.bucket);
      totals.set(accKey, counters.accountUsage + 1);
      totals.set(projKey, counters.projectUsage + 1);
      const u = usage.get(projKey);
      if (u) u[3] += 1;
      else usage.set(projKey, [key.accountId, writes.usageDay, key.projectId, 1]);

      const found = findCard(key.projectId, report);
      const folded = acceptance.fold(found ? cardStateOf(found) : null, report, now);
      if (found) cards.set(found.id, found);
      const row = applyCard(key.projectId, folded.writes.card);
      cards.set(row.id, row);
      dirtyCards.set(row.id, row);
      variants.record(row.id, folded.writes.variant);

      let mailQueued = false;
      if (writes.warnings.length > 0) {
        flushCards(); // the warning names the top cards of the day: counts must be on disk
        mailQueued = warn(key.accountId, writes.warnings, iso(now));
      }
      const snapshot = { ...row }; // later reports in the batch move the live row on
      return {
        kind: folded.kind,
        get card() {
          return toCard(snapshot);
        },
        rate: decision.rate,
        mailQueued,
      };
    };

    const finish = () => {
      for (const [acc, d, proj, n] of usage.values()) q.usageUp.run(acc, d, proj, n, n);
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
