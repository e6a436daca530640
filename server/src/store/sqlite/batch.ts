import type Database from 'better-sqlite3';

/**
 * A pause of a connection's group commit (the WAL checkpointer closes it while it truncates the
 * WAL, see checkpointer.ts): while closed, batches wait for `open`; the event loop does not.
 */
export interface WriteGate {
  readonly closed: boolean;
  /** Runs `fn` once the gate is open again. */
  whenOpen(fn: () => void): void;
}
const gates = new WeakMap<Database.Database, WriteGate>();
/** Every group commit on `db` waits at `gate` before it begins a transaction. */
export const gateWrites = (db: Database.Database, gate: WriteGate) => gates.set(db, gate);
/** True while `db`'s writes are paused by its gate (not by a fault). */
export const writesPaused = (db: Database.Database) => gates.get(db)?.closed === true;

/** One batch's work: `run` per call, then `finish` writes what the calls accumulated. */
export interface BatchWork<A extends unknown[], R> {
  run(...args: A): R;
  finish(): void;
}

/**
 * Group commit: calls made in the same event-loop turn run together in one IMMEDIATE
 * transaction and all their promises settle after that single COMMIT. Acknowledgements stay
 * durable (nobody hears back before the commit), counting stays exact (calls run one after
 * another while the write lock is held), and a hot row is written once per batch instead of once
 * per report. If anything throws, the whole batch rolls back and every call in it rejects (no
 * caller was acknowledged, so nothing acknowledged is lost).
 *
 * A batch stops taking calls once its work has run for `budgetMs` (at least one call runs), and
 * commits; the rest wait for the next turn of the event loop, so other requests (and `/health`)
 * are served in between however large the queue or its reports (65 kB descriptions make new
 * cards slow to write).
 */
export function groupCommit<A extends unknown[], R>(
  db: Database.Database,
  begin: () => BatchWork<A, R>,
  onRollback: () => void = () => {},
  { maxBatch = 512, budgetMs = 4 } = {},
): (...args: A) => Promise<R> {
  type Item = { args: A; resolve: (r: R) => void; reject: (e: unknown) => void };
  let queue: Item[] = [];
  let scheduled = false;
  let attempted = 0;
  const all = db.transaction((items: Item[]) => {
    const work = begin();
    const results: R[] = [];
    const started = performance.now();
    for (const item of items) {
      attempted++;
      results.push(work.run(...item.args));
      if (performance.now() - started >= budgetMs) break;
    }
    work.finish();
    return results;
  });
  const flush = () => {
    scheduled = false;
    const gate = gates.get(db);
    if (gate?.closed) {
      scheduled = true;
      gate.whenOpen(flush);
      return;
    }
    const items = queue.length > maxBatch ? queue.slice(0, maxBatch) : queue;
    queue = items === queue ? [] : queue.slice(maxBatch);
    let results: R[];
    attempted = 0;
    try {
      results = all.immediate(items);
    } catch (error) {
      onRollback();
      // The calls the rolled-back work reached fail; if it failed before any (BEGIN itself), all.
      const reached = attempted > 0 ? attempted : items.length;
      for (const item of items.slice(0, reached)) item.reject(error);
      requeue(items.slice(reached));
      return;
    }
    for (const [i, result] of results.entries()) items[i]!.resolve(result);
    requeue(items.slice(results.length));
  };
  /** Calls a batch did not reach go first in the next one. */
  const requeue = (rest: Item[]) => {
    if (rest.length > 0) queue = rest.concat(queue);
    if (queue.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  return (...args: A) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ args, resolve, reject });
      schedule();
    });
}
