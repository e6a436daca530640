import type pg from 'pg';
import {
  type BucketState,
  type CardWrite,
  type CounterRead,
  createAcceptance,
  descriptionHash,
  utcDay,
} from '../../accept/index.ts';
import type { IngestConfig } from '../ingest.ts';
import { iso, toCard, type CardRow } from '../rows.ts';
import type { AuthKey, IngestOutcome, Plan, RateState, TaskReport } from '../types.ts';
import { groupCommitPg } from './batch.ts';
import { queryWithin } from './pool.ts';
import { cardStateOf, createBatchReads } from './ingest-reads.ts';
import { writeBatch } from './ingest-writes.ts';
import { reportWithoutNul } from './text.ts';
import { queueNotice, writeRegression } from './triage-writes.ts';
import { createPgVariantBatch } from './variants.ts';
import { queueQuotaWarnings } from './warnings.ts';

type Item = [AuthKey, TaskReport];

/**
 * The PostgreSQL side of acceptance: the rules are the pure module `../../accept`; this file only
 * reads what it needs and applies the writes it returns, exactly across instances. A batch first
 * locks the row of every account it touches (`SELECT … FOR NO KEY UPDATE`, in id order, so
 * batches never deadlock). The daily quota is an account-wide pool, so the account, not the
 * project, is the unit to serialise: while one instance holds it no other decides for that
 * account, and every read made after the lock (project state, token bucket, usage, cards,
 * variants) sees every earlier commit. Reports are then decided one after another; counters are
 * written once per batch, in one statement (`ingest-writes.ts`: `INSERT … ON CONFLICT` for usage
 * rows and buckets, `UPDATE … FROM unnest` for cards and variants).
 */
export function createPgIngest(pool: pg.Pool, config: IngestConfig) {
  const acceptance = createAcceptance(config);

  const runBatch = async (client: pg.PoolClient, items: Item[]): Promise<IngestOutcome[]> => {
    const accounts = [...new Set(items.map(([key]) => key.accountId))].sort((a, b) => a - b);
    await client.query('SELECT id FROM accounts WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE', [
      accounts,
    ]);
    const reads = createBatchReads(client);
    await reads.prefetch(
      items.map(([key, report]) => ({ projectId: key.projectId, title: report.title })),
      utcDay(config.now()),
    );
    const variants = createPgVariantBatch(client, config.variantCap);
    const cards = new Map<number, CardRow>(); // one object per card within the batch
    const dirtyCards = new Set<CardRow>();
    const buckets = new Map<number, BucketState>();
    const usage = new Map<string, [number, number, number, number]>();

    const flushCards = async () => {
      for (const row of dirtyCards) {
        await client.query(
          `UPDATE cards SET occurrence_count = $1, last_seen_at = $2, tags = $3, usage_day = $4,
             usage_count = $5 WHERE id = $6`,
          [
            row.occurrence_count,
            row.last_seen_at,
            row.tags,
            row.usage_day,
            row.usage_count,
            row.id,
          ],
        );
      }
      dirtyCards.clear();
    };
    const canonical = (r: CardRow | undefined) => r && (cards.get(r.id) ?? r);
    const findCard = async (projectId: number, report: TaskReport) => {
      const byTitle = canonical(await reads.cardByTitle(projectId, report.title));
      if (byTitle) return byTitle;
      const hash = descriptionHash(report);
      if (hash === null) return undefined;
      return canonical(await reads.cardByDescription(projectId, hash, report.description!));
    };
    const applyCard = async (projectId: number, write: CardWrite): Promise<CardRow> => {
      if (write.kind === 'update') {
        const c = write.card;
        const row = cards.get(c.id)!;
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
          await writeRegression(client, row.id, c.regression);
        }
        dirtyCards.add(row);
        return row;
      }
      const c = write.card;
      const { rows } = await client.query<CardRow>(
        `INSERT INTO cards (project_id, title, description, description_hash, description_type,
           priority, severity, tags, status, occurrence_count, file_name, line_number, created_at,
           last_seen_at, usage_day, usage_count)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $16, $9, $10, $11, $12, $13, $14, $15)
         RETURNING *`,
        [
          projectId,
          c.title,
          c.description,
          c.descriptionHash,
          c.descriptionType,
          c.priority,
          c.severity,
          JSON.stringify(c.tags),
          c.occurrenceCount,
          c.fileName,
          c.lineNumber,
          c.createdAt,
          c.lastSeenAt,
          c.usageDay,
          c.usageCount,
          c.status,
        ],
      );
      const row = rows[0]!;
      reads.set(`title:${projectId}\0${c.title}`, row);
      return row;
    };

    const decide = async (key: AuthKey, report: TaskReport): Promise<IngestOutcome> => {
      const now = config.now();
      const day = utcDay(now);
      const counters: CounterRead = {
        plan: key.plan,
        projectState: await reads.projectState(key.projectId),
        bucket: await reads.bucket(key.projectId),
        accountUsage: await reads.accountUsage(key.accountId, day),
        projectUsage: await reads.projectUsage(key.accountId, day, key.projectId),
        activeProjects: await reads.activeProjects(key.accountId),
      };
      const admission = acceptance.admit(counters, now);
      const { decision } = admission;
      if (decision.kind !== 'admitted') return decision;
      const writes = admission.counters!;
      reads.set(`bucket:${key.projectId}`, writes.bucket);
      buckets.set(key.projectId, writes.bucket);
      reads.set(`usage:${key.accountId}:${day}`, counters.accountUsage + 1);
      reads.set(`usage:${key.accountId}:${day}:${key.projectId}`, counters.projectUsage + 1);
      const usageKey = `${key.accountId}:${writes.usageDay}:${key.projectId}`;
      const u = usage.get(usageKey);
      if (u) u[3] += 1;
      else usage.set(usageKey, [key.accountId, writes.usageDay, key.projectId, 1]);

      const found = await findCard(key.projectId, report);
      if (found) cards.set(found.id, found);
      const folded = acceptance.fold(found ? cardStateOf(found) : null, report, now);
      const row = await applyCard(key.projectId, folded.writes.card);
      cards.set(row.id, row);
      await variants.record(row.id, folded.writes.variant, folded.kind === 'created');
      if (folded.notice) await queueNotice(client, key.projectId, row.id, folded.notice, now);

      let mailQueued = false;
      if (writes.warnings.length > 0) {
        await flushCards(); // the warning names the top cards of the day
        mailQueued = await queueQuotaWarnings(client, key.accountId, writes.warnings, iso(now));
      }
      return { kind: folded.kind, card: toCard(row), rate: decision.rate, mailQueued };
    };

    const outcomes: IngestOutcome[] = [];
    for (const [key, report] of items) outcomes.push(await decide(key, report));
    await writeBatch(client, {
      buckets,
      usage: usage.values(),
      cards: dirtyCards,
      variants: variants.take(),
    });
    return outcomes;
  };

  const batches = groupCommitPg(pool, runBatch);
  return {
    ingest: (key: AuthKey, report: TaskReport) => batches.submit([key, reportWithoutNul(report)]),
    /** Resolves once every submitted report has been committed or refused (graceful shutdown). */
    drain: batches.drain,
    async rateState(projectId: number, plan: Plan): Promise<RateState> {
      const { rows } = await queryWithin<{ tokens: number; updatedAt: number }>(
        pool,
        5000,
        'SELECT tokens, updated_at AS "updatedAt" FROM buckets WHERE project_id = $1',
        [projectId],
      );
      return acceptance.rate(rows[0] ?? null, plan, config.now());
    },
  };
}
