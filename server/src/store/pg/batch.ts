import type pg from 'pg';
import { rollBack } from './pool.ts';

/**
 * Group commit on PostgreSQL: the calls that arrive while no batch is running (at least those of
 * one event-loop turn) run together on one connection (`runBatch` writes them in one statement,
 * or one transaction), and all their promises settle once that is committed, never before (no 2xx
 * for an uncommitted report). One batch runs at a time per instance; calls arriving meanwhile form
 * the next one. If the batch fails, every call of it rejects: none was acknowledged, so nothing
 * acknowledged is lost.
 *
 * A batch that has not committed within `timeoutMs` (a server that accepts TCP but answers
 * nothing: stopped with SIGSTOP, a network partition) rejects with a timeout its callers answer
 * 503, and its connection is destroyed, so PostgreSQL rolls it back once it reads again; the next
 * batch starts on another connection. A COMMIT that was in flight may still land: its reports were
 * not acknowledged, and their retries deduplicate (contract 4, rule 7).
 */
export function groupCommitPg<A, R>(
  pool: pg.Pool,
  runBatch: (client: pg.PoolClient, items: A[]) => Promise<R[]>,
  { maxBatch = 512, timeoutMs = 10_000 } = {},
) {
  type Item = { args: A; resolve: (r: R) => void; reject: (e: unknown) => void };
  let queue: Item[] = [];
  let running: Promise<void> | undefined;
  let scheduled = false;

  const execute = (items: Item[]) =>
    new Promise<void>((done) => {
      let client: pg.PoolClient | undefined;
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        for (const item of items) item.reject(error);
        done();
      };
      const timer = setTimeout(() => {
        fail(
          Object.assign(new Error(`PostgreSQL did not answer within ${timeoutMs} ms`), {
            code: 'ETIMEDOUT',
          }),
        );
        // Fails the query in flight, so the work below ends and the pool discards the client.
        (client as pg.Client | undefined)?.connection.stream.destroy();
      }, timeoutMs);
      const work = async () => {
        client = await pool.connect();
        if (settled) {
          client.release(); // timed out while waiting for a connection: nothing to run
          return [];
        }
        try {
          const results = await runBatch(
            client,
            items.map((i) => i.args),
          );
          client.release();
          return results;
        } catch (error) {
          // A transaction left open is rolled back; a lost connection fails this batch only, the
          // pool discards it and opens another.
          client.release(await rollBack(client, error));
          throw error;
        }
      };
      work().then((results) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        for (const [i, item] of items.entries()) item.resolve(results[i]!);
        done();
      }, fail);
    });

  const pump = () => {
    scheduled = false;
    if (running || queue.length === 0) return;
    const items = queue.slice(0, maxBatch);
    queue = queue.slice(items.length);
    running = execute(items).finally(() => {
      running = undefined;
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
      while (running || queue.length > 0) {
        if (running) await running;
        else await new Promise((r) => setImmediate(r));
      }
    },
  };
}
