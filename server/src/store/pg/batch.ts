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
  { maxBatch = 512, timeoutMs = 10_000, depth = 2 } = {},
) {
  type Item = { args: A; resolve: (r: R) => void; reject: (e: unknown) => void };
  let queue: Item[] = [];
  let scheduled = false;
  let inFlight = 0;
  /** The latest batch has not dispatched its write yet: the next one waits. */
  let deciding = false;
  let link: Promise<{ client: pg.PoolClient; connection: BatchConnection }> | undefined;
  let broken: unknown;
  const idle: (() => void)[] = [];

  const open = () =>
    (link ??= pool.connect().then((client) => ({ client, connection: gate(client) })));
  const close = async () => {
    const current = link;
    link = undefined;
    const failure = broken;
    broken = undefined;
    const opened = await current?.catch(() => undefined);
    if (!opened) return;
    opened.client.release(
      failure === undefined ? undefined : await rollBack(opened.client, failure),
    );
  };

  const execute = (items: Item[]) =>
    new Promise<void>((done) => {
      let settled = false;
      let dispatchedOnce = false;
      const dispatched = () => {
        if (dispatchedOnce) return;
        dispatchedOnce = true;
        deciding = false;
        schedule();
      };
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        broken ??= error;
        for (const item of items) item.reject(error);
        dispatched();
        done();
      };
      const timer = setTimeout(() => {
        fail(
          Object.assign(new Error(`PostgreSQL did not answer within ${timeoutMs} ms`), {
            code: 'ETIMEDOUT',
          }),
        );
        // Fails the statements in flight, so the work below ends and the pool discards the client.
        void link?.then(({ client }) => (client as pg.Client).connection.stream.destroy());
      }, timeoutMs);
      const work = async () => {
        const { connection } = await open();
        if (settled) return []; // timed out while waiting for a connection: nothing to run
        return runBatch(
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

  const pump = () => {
    scheduled = false;
    if (deciding || inFlight >= depth || queue.length === 0) return;
    const items = queue.slice(0, maxBatch);
    queue = queue.slice(items.length);
    inFlight++;
    deciding = true;
    void execute(items).then(async () => {
      inFlight--;
      if (inFlight === 0) {
        await close();
        for (const resolve of idle.splice(0)) resolve();
      }
      if (queue.length > 0) schedule();
    });
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(pump);
  };

  return {
    submit: (args: A) =>
      new Promise<R>((resolve, reject) => {
        queue.push({ args, resolve, reject });
        schedule();
      }),
    /** Resolves once every submitted call has settled (graceful shutdown). */
    async drain() {
      while (inFlight > 0 || queue.length > 0) {
        if (inFlight > 0) await new Promise<void>((resolve) => idle.push(resolve));
        else await new Promise((r) => setImmediate(r));
      }
    },
  };
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
