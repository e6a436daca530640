import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScanLimits } from '../../../src/store/board-scan.ts';
import type { BoardStore } from '../../../src/store/board-types.ts';
import { openBoardStore, openStore } from '../../../src/store/open.ts';
import type { AuthKey, IngestConfig, Member, Store, TaskReport } from '../../../src/store/types.ts';
import { STORE_KIND, testDatabaseUrl } from '../../store-kind.ts';

// What the contract suites run against: the stores of this run's engine, opened through the port
// as the service opens them (SQLite in the `server` project, PostgreSQL in `server-pg`).
export { STORE_KIND };

export interface TestEngine {
  /** The data dir (SQLite's file is there; PostgreSQL's stores keep none). */
  dataDir: string;
  store: Store;
  /** The board's store on the same data; `scan` lowers the bounds of a filtered cards page. */
  board(scan?: ScanLimits): Promise<BoardStore>;
  /** An account and a project of it, and a key of theirs as ingestion sees it. */
  project(opts?: { plan?: AuthKey['plan']; members?: Member[]; name?: string }): Promise<AuthKey>;
  close(): Promise<void>;
}

/** Limits no test reaches, for tests about something else. */
export const UNLIMITED = (() => {
  const big = { burstPerMinute: 1e9, dailyEvents: 1e9 };
  return { hobby: big, indie: big, professional: big, team: big };
})();

/** A fresh, empty database of this run's engine with its ingestion store open. */
export async function openTestEngine(
  config: Partial<IngestConfig> & Pick<IngestConfig, 'now'>,
): Promise<TestEngine> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-contract-'));
  const databaseUrl = await testDatabaseUrl();
  const store = await openStore({
    databaseUrl,
    dataDir,
    plans: UNLIMITED as never,
    variantCap: 20,
    projectQuotaShare: 0.8,
    ...config,
  });
  const boards: BoardStore[] = [];
  let keys = 0;
  return {
    dataDir,
    store,
    async board(scan) {
      const board = await openBoardStore({ databaseUrl, dataDir, scan });
      boards.push(board);
      return board;
    },
    async project({ plan = 'team', members = [], name = 'P' } = {}) {
      const account = await store.createAccount({ name: 'A', plan, members });
      const project = await store.createProject({ accountId: account.id, name });
      return {
        id: ++keys,
        kind: 'publishable',
        projectId: project.id,
        accountId: account.id,
        plan,
        secretHash: null,
        origins: [],
      };
    },
    async close() {
      for (const board of boards) await board.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A report with defaults for what a test does not name. */
export const report = (title: string, more: Partial<TaskReport> = {}): TaskReport => ({
  severity: 'major',
  priority: 'medium',
  title,
  description: null,
  tags: [],
  file_name: null,
  line_number: null,
  ...more,
});

/** Deterministic pseudo-random numbers (a fixed seed keeps failures reproducible). */
export function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}
