import type Database from 'better-sqlite3';

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
 * per report. If anything throws, the whole batch rolls back and every call rejects (no caller
 * was acknowledged, so nothing acknowledged is lost).
 */
export function groupCommit<A extends unknown[], R>(
  db: Database.Database,
  begin: () => BatchWork<A, R>,
  onRollback: () => void = () => {},
  maxBatch = 512,
): (...args: A) => Promise<R> {
  type Item = { args: A; resolve: (r: R) => void; reject: (e: unknown) => void };
  let queue: Item[] = [];
  let scheduled = false;
  const all = db.transaction((items: Item[]) => {
    const work = begin();
    const results = items.map((item) => work.run(...item.args));
    work.finish();
    return results;
  });
  const flush = () => {
    scheduled = false;
    let items = queue;
    if (queue.length > maxBatch) {
      items = queue.slice(0, maxBatch);
      queue = queue.slice(maxBatch);
      schedule();
    } else {
      queue = [];
    }
    let results: R[];
    try {
      results = all.immediate(items);
    } catch (error) {
      onRollback();
      for (const item of items) item.reject(error);
      return;
    }
    for (const [i, item] of items.entries()) item.resolve(results[i]!);
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
