import type pg from 'pg';
import { rollBack } from './pool.ts';

/** What a batch's statements go through: `query`, or `exclusive` for a transaction. */
export interface BatchConnection {
  query: pg.PoolClient['query'];
  /**
   * Runs `work` alone on the connection: statements of other batches wait until it is done (a
   * transaction must not take in another batch's statements).
   */
  exclusive<T>(work: (query: pg.PoolClient['query']) => Promise<T>): Promise<T>;
}

/**
 * A batch as the group commit runs it. `dispatched()` says its write is on its way (and what it
 * will change is known to the port), so the next batch may be decided meanwhile.
 */
export type RunBatch<A, R> = (
  connection: BatchConnection,
  items: A[],
  dispatched: () => void,
) => Promise<R[]>;

/**
 * Group commit on PostgreSQL: the calls that arrive while a batch is being decided (at least those
 * of one event-loop turn) run together (`runBatch` writes them in one statement, or one
 * transaction), and all their promises settle once that is committed, never before (no 2xx for an
 * uncommitted report). Batches share one connection, so their statements reach PostgreSQL in the
 * order they were decided; up to `depth` are in flight: the next is decided while the previous
 * one's write travels and commits. If a batch fails, every call of it rejects: none was
 * acknowledged, so nothing acknowledged is lost.
 *
 * A batch that has not committed within `timeoutMs` (a server that accepts TCP but answers
 * nothing: stopped with SIGSTOP, a network partition) rejects with a timeout its callers answer
 * 503, and the connection is destroyed (every batch on it fails), so PostgreSQL rolls back what
 * was open once it reads again; the next batch starts on another connection. A write that was in
 * flight may still land: its reports were not acknowledged, and their retries deduplicate
 * (contract 4, rule 7).
 */
export function groupCommitPg<A, R>(
  pool: pg.Pool,
  runBatch: RunBatch<A, R>,
  options: GroupCommitOptions = {},
) {
  const commit = new PgGroupCommit(pool, runBatch, options);
  return {
    submit: (args: A) => commit.submit(args),
    /** Resolves once every submitted call has settled (graceful shutdown). */
    drain: () => commit.drain(),
  };
}

export interface GroupCommitOptions {
  /** Calls in one batch at most. @default 512 */
  maxBatch?: number;
  /** A batch not committed by then fails and its connection is destroyed. @default 10000 */
  timeoutMs?: number;
  /** Batches in flight at once on the connection. @default 2 */
  depth?: number;
}

type Item<A, R> = { args: A; resolve: (r: R) => void; reject: (e: unknown) => void };

class PgGroupCommit<A, R> {
  readonly #pool: pg.Pool;
  readonly #runBatch: RunBatch<A, R>;
  readonly #maxBatch: number;
  readonly #timeoutMs: number;
  readonly #depth: number;
  #queue: Item<A, R>[] = [];
  #scheduled = false;
  #inFlight = 0;
  /** The latest batch has not dispatched its write yet: the next one waits. */
  #deciding = false;
  #link: Promise<{ client: pg.PoolClient; connection: BatchConnection }> | undefined;
  #broken: unknown;
  readonly #idle: (() => void)[] = [];

  constructor(pool: pg.Pool, runBatch: RunBatch<A, R>, options: GroupCommitOptions) {
    this.#pool = pool;
    this.#runBatch = runBatch;
    this.#maxBatch = options.maxBatch ?? 512;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#depth = options.depth ?? 2;
  }

  submit(args: A): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ args, resolve, reject });
      this.#schedule();
    });
  }

  async drain(): Promise<void> {
    while (this.#inFlight > 0 || this.#queue.length > 0) {
      if (this.#inFlight > 0) await new Promise<void>((resolve) => this.#idle.push(resolve));
      else await new Promise((r) => setImmediate(r));
    }
  }

  #open() {
    this.#link ??= this.#pool.connect().then((client) => ({ client, connection: gate(client) }));
    return this.#link;
  }

  async #close(): Promise<void> {
    const current = this.#link;
    this.#link = undefined;
    const failure = this.#broken;
    this.#broken = undefined;
    const opened = await current?.catch(() => undefined);
    if (!opened) return;
    opened.client.release(
      failure === undefined ? undefined : await rollBack(opened.client, failure),
    );
  }

  #execute(items: Item<A, R>[]): Promise<void> {
    return new Promise<void>((done) => {
      let settled = false;
      let dispatchedOnce = false;
      const dispatched = () => {
        if (dispatchedOnce) return;
        dispatchedOnce = true;
        this.#deciding = false;
        this.#schedule();
      };
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.#broken ??= error;
        for (const item of items) item.reject(error);
        dispatched();
        done();
      };
      const timer = setTimeout(() => this.#timedOut(fail), this.#timeoutMs);
      const work = async () => {
        const { connection } = await this.#open();
        if (settled) return []; // timed out while waiting for a connection: nothing to run
        return this.#runBatch(
          connection,
          items.map((i) => i.args),
          dispatched,
        );
      };
      work().then((results) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        for (const [i, item] of items.entries()) item.resolve(results[i]!);
        dispatched();
        done();
      }, fail);
    });
  }

  #timedOut(fail: (error: unknown) => void): void {
    fail(
      Object.assign(new Error(`PostgreSQL did not answer within ${this.#timeoutMs} ms`), {
        code: 'ETIMEDOUT',
      }),
    );
    // Fails the statements in flight, so the work below ends and the pool discards the client.
    void this.#link?.then(({ client }) => (client as pg.Client).connection.stream.destroy());
  }

  #pump(): void {
    this.#scheduled = false;
    if (this.#deciding || this.#inFlight >= this.#depth || this.#queue.length === 0) return;
    const items = this.#queue.slice(0, this.#maxBatch);
    this.#queue = this.#queue.slice(items.length);
    this.#inFlight++;
    this.#deciding = true;
    void this.#execute(items).then(async () => {
      this.#inFlight--;
      if (this.#inFlight === 0) {
        await this.#close();
        for (const resolve of this.#idle.splice(0)) resolve();
      }
      if (this.#queue.length > 0) this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#pump());
  }
}

/** A connection whose statements wait while one batch runs a transaction on it. */
function gate(client: pg.PoolClient): BatchConnection {
  let holder: symbol | undefined;
  let waiting: (() => void)[] = [];
  const free = () => new Promise<void>((resolve) => waiting.push(resolve));
  const through = async (owner: symbol | undefined, args: unknown[]) => {
    while (holder !== undefined && holder !== owner) await free();
    return (client.query as (...a: unknown[]) => unknown)(...args);
  };
  return {
    query: ((...args: unknown[]) => through(undefined, args)) as pg.PoolClient['query'],
    async exclusive(work) {
      while (holder !== undefined) await free();
      const owner = Symbol('transaction');
      holder = owner;
      try {
        return await work(((...args: unknown[]) => through(owner, args)) as pg.PoolClient['query']);
      } finally {
        holder = undefined;
        const woken = waiting;
        waiting = [];
        for (const resolve of woken) resolve();
      }
    },
  };
}
