import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { openSqlite } from '../../../src/store/sqlite/driver.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { createTurnBudget } from '../../../src/http/turns.ts';
import { gateWrites, groupCommit } from '../../../src/store/sqlite/batch.ts';

// The bounds on one turn of the event loop, in-process on a real SQLite file: a group commit stops
// taking calls once its work has run for its budget (the rest commit in later turns), waits at a
// closed write gate without blocking the loop, and the request budget defers work past its share.
const root = mkdtempSync(join(tmpdir(), 'svc-batch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

function table(name: string) {
  const db = openSqlite(join(root, `${name}.sqlite`));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (n INTEGER)');
  const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
  let commits = 0;
  const write = groupCommit<[number], number>(
    db,
    () => ({
      run: (n) => {
        busy(2);
        insert.run(n);
        return n;
      },
      finish: () => {
        commits++;
      },
    }),
    () => {},
    { budgetMs: 5 },
  );
  return { db, write, commits: () => commits };
}

describe('group commit', () => {
  it('splits a queue whose work passes the budget over several turns; every call commits', async () => {
    const { db, write, commits } = table('budget');
    let turnsBetween = 0;
    const ticker = setInterval(() => turnsBetween++, 0);
    const results = await Promise.all(Array.from({ length: 30 }, (_, n) => write(n)));
    clearInterval(ticker);
    expect(results).toEqual(Array.from({ length: 30 }, (_, n) => n));
    expect(commits()).toBeGreaterThanOrEqual(8); // 2 ms each, 5 ms a batch: 3 calls a batch
    expect(turnsBetween).toBeGreaterThan(0); // timers ran between the batches
    expect(db.prepare('SELECT COUNT(*) AS c FROM t').get()).toEqual({ c: 30 });
    db.close();
  });

  it('waits at a closed gate, and commits once it opens', async () => {
    const { db, write } = table('gate');
    let closed = true;
    const waiting: (() => void)[] = [];
    gateWrites(db, {
      get closed() {
        return closed;
      },
      whenOpen: (fn) => waiting.push(fn),
    });
    let settled = false;
    const pending = write(1).then(() => (settled = true));
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(settled).toBe(false);
    expect(db.prepare('SELECT COUNT(*) AS c FROM t').get()).toEqual({ c: 0 });
    closed = false;
    for (const fn of waiting.splice(0)) fn();
    await pending;
    expect(db.prepare('SELECT COUNT(*) AS c FROM t').get()).toEqual({ c: 1 });
    db.close();
  });
});

describe('turn budget', () => {
  it('passes at once within the budget, then defers to a later turn', async () => {
    const take = createTurnBudget(5);
    expect(take()).toBeUndefined();
    busy(6);
    const deferred = take();
    expect(deferred).toBeInstanceOf(Promise);
    let ran = false;
    void deferred!.then(() => (ran = true));
    await Promise.resolve();
    expect(ran).toBe(false);
    await nextTurn();
    await nextTurn();
    expect(ran).toBe(true);
  });
});
