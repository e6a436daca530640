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
import type { IngestConfig } from '../types.ts';
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
import { type BatchConnection, groupCommitPg } from './batch.ts';
import { PgIngestCache, type Pinned } from './ingest-cache.ts';
import { type BatchItem, hasMisses, noMisses, readInto, readRequest } from './ingest-read.ts';
import { pgView } from './ingest-view.ts';
import { applyCreated, applyPredicted, type WriteAnswer, writeBatch } from './ingest-write.ts';
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

type Query = Pick<pg.PoolClient, 'query'>;
type Batch = ReturnType<typeof createBatch>;

/** A batch's reports, those still to decide, and the outcomes settled so far. */
interface Run {
  items: BatchItem[];
  positions: number[];
  outcomes: IngestOutcome[];
}

/** A decided batch whose write is on its way. */
interface Dispatched {
  batch: Batch;
  decided: Decided[];
  accounts: number[];
  versions: [number, number, number][];
  shown: Map<number, CardFacts | undefined>;
  writes: BatchWrites;
  writing: Promise<WriteAnswer>;
  epochs: Map<number, number | undefined> | undefined;
}

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
  const ingest = new PgIngest(pool, config, forgetKey);
  return {
    ingest: (key: AuthKey, report: TaskReport, opts?: IngestOptions) =>
      ingest.ingest(key, report, opts),
    /** Resolves once every submitted report has been committed or refused (graceful shutdown). */
    drain: () => ingest.drain(),
    rateState: (projectId: number, plan: Plan) => ingest.rateState(projectId, plan),
  };
}

class PgIngest {
  readonly #pool: pg.Pool;
  readonly #config: IngestConfig;
  readonly #forgetKey: (id: number) => void;
  readonly #acceptance: ReturnType<typeof createAcceptance>;
  readonly #cache = new PgIngestCache();
  readonly #batches: ReturnType<typeof groupCommitPg<BatchItem, IngestOutcome>>;
  // One batch decides at a time, from its first read to its write being on its way: a batch
  // deciding meanwhile would mix what it read before another's prediction with the version after.
  #decider: Promise<void> = Promise.resolve();

  constructor(pool: pg.Pool, config: IngestConfig, forgetKey: (id: number) => void) {
    this.#pool = pool;
    this.#config = config;
    this.#forgetKey = forgetKey;
    this.#acceptance = createAcceptance(config);
    this.#batches = groupCommitPg(pool, (connection, items, dispatched) =>
      this.#runBatch(connection, items, dispatched),
    );
  }

  ingest(key: AuthKey, report: TaskReport, opts?: IngestOptions): Promise<IngestOutcome> {
    return this.#batches.submit({
      key,
      report: reportWithoutNul(report),
      card: opts?.card !== false,
    });
  }

  drain(): Promise<void> {
    return this.#batches.drain();
  }

  async rateState(projectId: number, plan: Plan): Promise<RateState> {
    const { rows } = await queryWithin<{ tokens: number; updatedAt: number }>(
      this.#pool,
      5000,
      'SELECT tokens, updated_at AS "updatedAt" FROM buckets WHERE project_id = $1',
      [projectId],
    );
    return this.#acceptance.rate(rows[0] ?? null, plan, this.#config.now());
  }

  async #alone<T>(work: () => Promise<T>): Promise<T> {
    const before = this.#decider;
    let done!: () => void;
    this.#decider = new Promise((resolve) => (done = resolve));
    await before;
    try {
      return await work();
    } finally {
      done();
    }
  }

  async #runBatch(
    connection: BatchConnection,
    all: BatchItem[],
    dispatched: () => void,
  ): Promise<IngestOutcome[]> {
    const run: Run = { items: all, positions: all.map((_, i) => i), outcomes: [] };
    for (let stale = 0; stale < OPTIMISTIC_ATTEMPTS;) {
      const result = await this.#attempt(connection, run, false, dispatched);
      if (result === 'done') return run.outcomes;
      if (result === 'locked') break;
      stale++;
    }
    return this.#alone(() =>
      connection.exclusive(async (query) => {
        const q = { query };
        const accounts = [...new Set(run.items.map((i) => i.key.accountId))];
        try {
          await q.query('BEGIN');
          while ((await this.#attempt(q, run, true)) !== 'done');
          await q.query('COMMIT');
        } catch (error) {
          for (const a of accounts) this.#cache.forget(a);
          throw error;
        }
        return run.outcomes;
      }),
    );
  }

  /**
   * One attempt at the batch: decide, write. `again`: decide again (stale versions, or revoked
   * keys whose reports are now refused); `locked`: decide again under the accounts' locks.
   * Unlocked, what the batch changes is known here as soon as its write is on its way
   * (`dispatched`), and forgotten if the write does not land.
   */
  async #attempt(
    q: Query,
    run: Run,
    locked: boolean,
    dispatched?: () => void,
  ): Promise<'done' | 'again' | 'locked'> {
    const decide = () => this.#decideAndWrite(q, run, locked, dispatched);
    const decision = await (locked ? decide() : this.#alone(decide));
    if (decision === 'locked' || decision === 'again') return decision;
    let answer: WriteAnswer;
    try {
      answer = await decision.writing;
    } catch (error) {
      for (const a of decision.accounts) this.#cache.forget(a);
      throw error;
    }
    if ('stale' in answer || 'revoked' in answer) {
      for (const a of decision.accounts) this.#cache.forget(a);
      if ('stale' in answer) {
        if (locked) throw new Error('An ingest batch found its locked accounts moved.');
        return 'again';
      }
      return this.#refuseRevoked(run, answer.revoked);
    }
    await this.#settle(q, run, locked, decision, answer);
    return 'done';
  }

  /** Decides the batch and starts its write; or says it must be decided again (or locked). */
  async #decideAndWrite(
    q: Query,
    run: Run,
    locked: boolean,
    dispatched?: () => void,
  ): Promise<Dispatched | 'locked' | 'again'> {
    const cache = this.#cache;
    const done = await this.#decideAll(q, run.items, locked);
    if (!done) return 'locked';
    const { batch, decided, pinned } = done;
    const writes = batch.writes();
    if (writes.warnings.length > 0 && !locked) return 'locked';
    const accounts = [...new Set(run.items.map((i) => i.key.accountId))].sort((a, b) => a - b);
    // Another batch's refused write may have made this instance forget an account in the
    // microtasks since the decision; a write without the version it was decided at would not be
    // checked (NULL compares as unchanged), so decide again, reading the account afresh.
    if (accounts.some((a) => cache.version(a) === undefined)) return 'again';
    const written = new Set(writes.usage.map(([account]) => account));
    const versions = accounts.map((a): [number, number, number] => {
      const at = cache.version(a)!;
      return [a, at, written.has(a) ? randomInt(1, 2 ** 48) : at];
    });
    const shown = visibleCards(run.items, decided);
    for (const id of shown.keys()) shown.set(id, cache.get('cards', String(id), pinned)!.facts);
    const keys = [...new Set(run.items.map((i) => i.key.id))];
    const writing = writeBatch(q, writes, versions, keys, [...shown.keys()]);
    let epochs: Map<number, number | undefined> | undefined;
    if (!locked) {
      epochs = applyPredicted(cache, writes, versions, batch.namedAfter);
      dispatched?.();
    }
    return { batch, decided, accounts, versions, shown, writes, writing, epochs };
  }

  /**
   * Decides every item on what is known, reading what is not, pass after pass; undefined when the
   * unlocked passes run out (the caller retries under the locks).
   */
  async #decideAll(client: Query, items: BatchItem[], locked: boolean) {
    const config = this.#config;
    const pinned: Pinned = new Map();
    const lists = new Map<number, VariantState[]>();
    let misses = noMisses();
    let read = false;
    for (let pass = 0; pass < (locked ? LOCKED_PASSES : UNLOCKED_PASSES + 1); pass++) {
      const request = readRequest(
        this.#cache,
        items,
        config.now(),
        misses,
        locked && !read,
        pinned,
      );
      if (request) {
        await readInto(this.#cache, client, request, locked, pinned, lists);
        read = true;
      }
      misses = noMisses();
      const batch = createBatch(config, pgView(this.#cache, pinned, misses, lists));
      const decided = items.map(({ key, report }) => batch.decide(key, report, config.now()));
      if (!hasMisses(misses)) return { batch, decided, pinned };
    }
    if (!locked) return undefined;
    throw new Error(`An ingest batch still missed state after ${LOCKED_PASSES} locked reads.`);
  }

  /** The revoked keys' reports are refused; the rest are decided again without them. */
  #refuseRevoked(run: Run, revokedKeys: number[]): 'again' | 'done' {
    const revoked = new Set(revokedKeys);
    for (const id of revoked) this.#forgetKey(id);
    const kept = [...run.items.keys()].filter((j) => !revoked.has(run.items[j]!.key.id));
    for (const [j, item] of run.items.entries()) {
      if (revoked.has(item.key.id)) run.outcomes[run.positions[j]!] = { kind: 'revoked' };
    }
    run.positions = kept.map((j) => run.positions[j]!);
    run.items = kept.map((j) => run.items[j]!);
    return run.items.length > 0 ? 'again' : 'done';
  }

  /** The write landed: warnings (locked), the cache learns the new rows, the outcomes settle. */
  async #settle(
    q: Query,
    run: Run,
    locked: boolean,
    { batch, decided, versions, shown, writes, epochs: predicted }: Dispatched,
    answer: Extract<WriteAnswer, { cards: number[] }>,
  ): Promise<void> {
    let epochs = predicted;
    const mailed = new Set<QuotaWarning[]>();
    if (locked) {
      await this.#queueWarnings(q, writes, mailed);
      epochs = applyPredicted(this.#cache, writes, versions, batch.namedAfter);
    }
    const ids = new Map(writes.cardInserts.map((c, i) => [c.ref, answer.cards[i]!]));
    applyCreated(this.#cache, writes, ids, answer.variants, batch.namedAfter, epochs!);
    for (const [j, d] of decided.entries()) {
      const { outcome, pending } = outcomeOf(
        d,
        (id) => shown.get(id)!,
        (id) => answer.descriptions?.[id] ?? null,
      );
      pending?.settle({ ids, mailed });
      run.outcomes[run.positions[j]!] = outcome;
    }
    run.items = [];
  }

  /** Quota warnings, in the locked transaction, after the batch's cards are written. */
  async #queueWarnings(client: Query, w: BatchWrites, mailed: Set<QuotaWarning[]>) {
    const at = iso(this.#config.now());
    for (const { accountId, warnings } of w.warnings) {
      if (await queueQuotaWarnings(client, accountId, warnings, at)) mailed.add(warnings);
    }
  }
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
