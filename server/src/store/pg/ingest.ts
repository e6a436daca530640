import { randomInt } from 'node:crypto';
import type pg from 'pg';
import {
  type BatchWrites,
  createAcceptance,
  createBatch,
  type Decided,
  PENDING_BASE,
  type QuotaWarning,
  type VariantState,
} from '../../accept/index.ts';
import type { IngestConfig } from '../ingest.ts';
import { type CardFacts, outcomeOf } from '../outcomes.ts';
import { iso } from '../rows.ts';
import type {
  AuthKey,
  IngestOptions,
  IngestOutcome,
  Plan,
  RateState,
  TaskReport,
} from '../types.ts';
import { groupCommitPg } from './batch.ts';
import { createPgIngestCache, type Pinned } from './ingest-cache.ts';
import { type BatchItem, hasMisses, noMisses, readInto, readRequest } from './ingest-read.ts';
import { pgView } from './ingest-view.ts';
import { applyWritten, writeBatch } from './ingest-write.ts';
import { queryWithin } from './pool.ts';
import { reportWithoutNul } from './text.ts';
import { queueQuotaWarnings } from './warnings.ts';

/**
 * Decision passes per attempt: a pass that missed something reads it and decides again. Without
 * the locks, an account moved by another instance between two reads starts its knowledge over, so
 * a batch still missing state after `UNLOCKED_PASSES` takes the locks and reads under them.
 */
const UNLOCKED_PASSES = 2;
const LOCKED_PASSES = 6;
/** Writes refused as stale before the batch takes its accounts' locks for the whole attempt. */
const OPTIMISTIC_ATTEMPTS = 2;

/**
 * The PostgreSQL port to the batch decision of `../../accept`, for any number of instances on one
 * database. A batch is decided on what this instance knows of its accounts (`ingest-cache.ts`,
 * exact at each account's version), reading what it does not (`svc_ingest_read`, one statement),
 * and written by one statement (`svc_ingest_write`) that first locks the accounts' rows and
 * writes only if every account is still at the version the batch decided at. So a batch of known
 * cards is one round trip, committed by the statement itself. A stale batch is decided again on a
 * fresh read; after `OPTIMISTIC_ATTEMPTS` (or when it crosses a quota warning, whose mail names
 * the day's top cards) it runs in one transaction holding the accounts' locks from its read on.
 */
export function createPgIngest(
  pool: pg.Pool,
  config: IngestConfig,
  /** Told each key the write found revoked (the route's key cache forgets it). */
  forgetKey: (id: number) => void = () => {},
) {
  const acceptance = createAcceptance(config);
  const cache = createPgIngestCache();

  /**
   * Decides every item on what is known, reading what is not, pass after pass; undefined when the
   * unlocked passes run out (the caller retries under the locks).
   */
  const decideAll = async (client: pg.PoolClient, items: BatchItem[], locked: boolean) => {
    const pinned: Pinned = new Map();
    const lists = new Map<number, VariantState[]>();
    let misses = noMisses();
    let read = false;
    for (let pass = 0; pass < (locked ? LOCKED_PASSES : UNLOCKED_PASSES + 1); pass++) {
      const request = readRequest(cache, items, config.now(), misses, locked && !read, pinned);
      if (request) {
        await readInto(cache, client, request, locked, pinned, lists);
        read = true;
      }
      misses = noMisses();
      const batch = createBatch(config, pgView(cache, pinned, misses, lists));
      const decided = items.map(({ key, report }) => batch.decide(key, report, config.now()));
      if (!hasMisses(misses)) return { batch, decided, pinned };
    }
    if (!locked) return undefined;
    throw new Error(`An ingest batch still missed state after ${LOCKED_PASSES} locked reads.`);
  };

  const runBatch = async (client: pg.PoolClient, all: BatchItem[]): Promise<IngestOutcome[]> => {
    const outcomes: IngestOutcome[] = new Array(all.length);
    let items = all;
    let positions = all.map((_, i) => i);
    let locked = false;
    for (let attempt = 1; ; attempt++) {
      if (!locked && attempt > OPTIMISTIC_ATTEMPTS) {
        await client.query('BEGIN');
        locked = true;
      }
      const done = await decideAll(client, items, locked);
      if (!done) {
        await client.query('BEGIN');
        locked = true;
        continue;
      }
      const { batch, decided, pinned } = done;
      const writes = batch.writes();
      if (writes.warnings.length > 0 && !locked) {
        await client.query('BEGIN');
        locked = true;
        attempt--;
        continue;
      }
      const accounts = [...new Set(items.map((i) => i.key.accountId))].sort((a, b) => a - b);
      const written = new Set(writes.usage.map(([account]) => account));
      const versions = accounts.map((a): [number, number, number] => {
        const at = cache.version(a)!;
        return [a, at, written.has(a) ? randomInt(1, 2 ** 48) : at];
      });
      const shown = visibleCards(items, decided);
      for (const id of shown.keys()) shown.set(id, factsOf(id, pinned));
      const keys = [...new Set(items.map((i) => i.key.id))];
      const answer = await writeBatch(client, writes, versions, keys, [...shown.keys()]);
      if ('stale' in answer) {
        for (const [account, version] of answer.stale) cache.setVersion(account, version);
        if (locked) throw new Error('An ingest batch found its locked accounts moved.');
        continue;
      }
      if ('revoked' in answer) {
        // Those reports are refused; the rest are decided again without them.
        const revoked = new Set(answer.revoked);
        for (const id of revoked) forgetKey(id);
        const kept = [...items.keys()].filter((j) => !revoked.has(items[j]!.key.id));
        for (const [j, item] of items.entries()) {
          if (revoked.has(item.key.id)) outcomes[positions[j]!] = { kind: 'revoked' };
        }
        positions = kept.map((j) => positions[j]!);
        items = kept.map((j) => items[j]!);
        attempt--;
        if (items.length > 0) continue;
        if (locked) await client.query('COMMIT');
        return outcomes;
      }
      const mailed = new Set<QuotaWarning[]>();
      if (locked) {
        await queueWarnings(client, writes, mailed);
        await client.query('COMMIT');
      }
      const ids = new Map(writes.cardInserts.map((c, i) => [c.ref, answer.cards[i]!]));
      applyWritten(cache, writes, versions, ids, answer.variants, batch.namedAfter);
      for (const [j, d] of decided.entries()) {
        const { outcome, pending } = outcomeOf(
          d,
          (id) => shown.get(id)!,
          (id) => answer.descriptions?.[id] ?? null,
        );
        pending?.settle({ ids, mailed });
        outcomes[positions[j]!] = outcome;
      }
      return outcomes;
    }
  };

  /** Quota warnings, in the locked transaction, after the batch's cards are written. */
  const queueWarnings = async (
    client: pg.PoolClient,
    w: BatchWrites,
    mailed: Set<QuotaWarning[]>,
  ) => {
    const at = iso(config.now());
    for (const { accountId, warnings } of w.warnings) {
      if (await queueQuotaWarnings(client, accountId, warnings, at)) mailed.add(warnings);
    }
  };
  const factsOf = (id: number, pinned: Pinned): CardFacts =>
    cache.get('cards', String(id), pinned)!.facts;

  const batches = groupCommitPg(pool, runBatch);
  return {
    ingest: (key: AuthKey, report: TaskReport, opts?: IngestOptions) =>
      batches.submit({ key, report: reportWithoutNul(report), card: opts?.card !== false }),
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

/** Stored cards whose answers show them (their facts and descriptions are kept for the answer). */
function visibleCards(items: BatchItem[], decided: Decided[]): Map<number, CardFacts | undefined> {
  const shown = new Map<number, CardFacts | undefined>();
  for (const [i, d] of decided.entries()) {
    if (items[i]!.card && d.cardRef !== undefined && d.cardRef < PENDING_BASE) {
      shown.set(d.cardRef, undefined);
    }
  }
  return shown;
}
