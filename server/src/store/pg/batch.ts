import type pg from 'pg';
import { rollBack } from './pool.ts';

/**
 * Group commit on PostgreSQL: the calls that arrive while no batch is running (at least those of
 * one event-loop turn) run together in one transaction on one connection, and all their promises
 * settle after its COMMIT, never before (no 2xx for an uncommitted report). One batch runs at a
 * time per instance; calls arriving meanwhile form the next one. If the transaction fails, every
 * call of the batch rejects: none was acknowledged, so nothing acknowledged is lost.
 */
export function groupCommitPg<A, R>(
  pool: pg.Pool,
  runBatch: (client: pg.PoolClient, items: A[]) => Promise<R[]>,
  maxBatch = 512,
) {
  type Item = { args: A; resolve: (r: R) => void; reject: (e: unknown) => void };
  let queue: Item[] = [];
  let running: Promise<void> | undefined;
  let scheduled = false;

  const execute = async (items: Item[]) => {
    let results: R[];
    try {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        results = await runBatch(
          client,
          items.map((i) => i.args),
        );
        await client.query('COMMIT');
      } catch (error) {
        // A lost connection fails this batch only; the pool discards it and opens another.
        client.release(await rollBack(client, error));
        throw error;
      }
      client.release();
    } catch (error) {
      for (const item of items) item.reject(error);
      return;
    }
    for (const [i, item] of items.entries()) item.resolve(results[i]!);
  };

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
