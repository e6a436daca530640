import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { createAdmin } from '../../../src/admin.ts';
import { PLANS } from '../../../src/generated/limits.gen.ts';
import { FALLBACK_AUTOCHECKPOINT_PAGES } from '../../../src/store/sqlite/checkpointer.ts';
import { openSqliteStore } from '../../../src/store/sqlite/store.ts';
import type { AuthKey } from '../../../src/store/types.ts';

// The real store in-process: committed pages reach svc.sqlite through the worker's checkpoints
// while the store is open (SQLite's own checkpoint would wait for 1,000 WAL pages), and not at all
// with the worker turned off. The reports still read back in full after close.
const root = mkdtempSync(join(tmpdir(), 'svc-ckpt-'));
/** New cards of 2,000 characters each: well under the 1,000 WAL pages of SQLite's own checkpoint. */
const CARDS = 150;
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function fill(backgroundCheckpoint: boolean) {
  const dataDir = join(root, String(backgroundCheckpoint));
  const store = openSqliteStore({
    dataDir,
    now: Date.now,
    plans: { ...PLANS, team: { burstPerMinute: 1e6, dailyEvents: 1e6 } } as never,
    variantCap: 20,
    projectQuotaShare: 0.8,
    backgroundCheckpoint,
  });
  const admin = createAdmin(store);
  const account = await admin.createAccount({ name: 'A', plan: 'team' });
  const project = await admin.createProject({ accountId: account.id, name: 'P' });
  const key: AuthKey = {
    id: 1,
    kind: 'publishable',
    projectId: project.id,
    accountId: account.id,
    plan: 'team',
    secretHash: null,
    origins: [],
  };
  const file = join(dataDir, 'svc.sqlite');
  const before = statSync(file).size;
  const reports = Array.from({ length: CARDS }, (_, i) =>
    store.ingest(key, {
      severity: 'major',
      priority: 'medium',
      title: `Card ${i}`,
      description: `${i} ${'x'.repeat(2000)}`,
      tags: [],
      file_name: null,
      line_number: null,
    }),
  );
  expect((await Promise.all(reports)).every((o) => o.kind === 'created')).toBe(true);
  let grown = false;
  for (let i = 0; i < 40 && !grown; i++) {
    await sleep(50);
    grown = statSync(file).size > before + CARDS * 2000;
  }
  await store.close();
  const reopened = openSqliteStore({
    dataDir,
    now: Date.now,
    plans: PLANS as never,
    variantCap: 20,
    projectQuotaShare: 0.8,
  });
  const cards = await reopened.listCards(project.id);
  await reopened.close();
  return { grown, cards: cards.length };
}

it('a worker thread checkpoints the WAL while the store is open', async () => {
  expect(await fill(true)).toEqual({ grown: true, cards: CARDS });
});

it('without it, nothing reaches the database file before the 1,000-page checkpoint', async () => {
  expect(await fill(false)).toEqual({ grown: false, cards: CARDS });
});

it('under continuous commits the WAL is truncated while writes pause, not left to grow', async () => {
  const dataDir = join(root, 'continuous');
  const store = openSqliteStore({
    dataDir,
    now: Date.now,
    plans: { ...PLANS, team: { burstPerMinute: 1e6, dailyEvents: 1e6 } } as never,
    variantCap: 20,
    projectQuotaShare: 0.8,
  });
  const admin = createAdmin(store);
  const account = await admin.createAccount({ name: 'A', plan: 'team' });
  const project = await admin.createProject({ accountId: account.id, name: 'P' });
  const key: AuthKey = {
    id: 1,
    kind: 'publishable',
    projectId: project.id,
    accountId: account.id,
    plan: 'team',
    secretHash: null,
    origins: [],
  };
  const wal = join(dataDir, 'svc.sqlite-wal');
  const sizes: number[] = [];
  const sampler = setInterval(
    () => sizes.push(statSync(wal, { throwIfNoEntry: false })?.size ?? 0),
    10,
  );
  const filler = 'x'.repeat(60_000);
  const truncated = () => sizes.some((size, i) => i > 0 && size < sizes[i - 1]! / 2);
  // At least 120 MB through the WAL, more (up to 240 MB) while a busy machine delays the thread.
  for (let wave = 0; wave < 80 && (wave < 40 || !truncated()); wave++) {
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        store.ingest(key, {
          severity: 'major',
          priority: 'medium',
          title: `Wave ${wave} card ${i}`,
          description: `${wave}-${i} ${filler}`,
          tags: [],
          file_name: null,
          line_number: null,
        }),
      ),
    );
    expect(outcomes.every((o) => o.kind === 'created')).toBe(true);
  }
  clearInterval(sampler);
  await store.close();
  // The WAL was truncated while the store was open (a sample under half the one before it); the
  // main connection's own checkpoint (25,000 pages) never does that, it only reuses the file.
  expect(truncated()).toBe(true);
  expect(Math.max(...sizes)).toBeLessThan(2 * FALLBACK_AUTOCHECKPOINT_PAGES * 4096);
});
