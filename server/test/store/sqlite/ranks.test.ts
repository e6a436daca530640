import { join } from 'node:path';
import { openSqlite } from '../../../src/store/sqlite/driver.ts';
import { expect, it } from 'vitest';
import { taskReportSchema } from '../../../src/generated/schema.gen.ts';
import { PRIORITY_RANK, SEVERITY_RANK } from '../../../src/store/board-rows.ts';
import { openTestEngine, report } from '../contract/engine.ts';

// The generated rank columns SQLite sorts by agree with the ranks the cursor uses, for every
// severity and priority the spec has.
it('the generated rank columns agree with the ranks the cursor uses', async () => {
  const engine = await openTestEngine({ now: Date.now });
  try {
    const key = await engine.project();
    const { severity, priority } = taskReportSchema.properties;
    for (const s of severity.enum) {
      for (const p of priority.enum) {
        await engine.store.ingest(key, report(`${s} ${p}`, { severity: s, priority: p }));
      }
    }
    const db = openSqlite(join(engine.dataDir, 'svc.sqlite'), { readonly: true });
    const rows = db
      .prepare('SELECT DISTINCT severity, severity_rank, priority, priority_rank FROM cards')
      .all() as {
      severity: string;
      severity_rank: number;
      priority: string;
      priority_rank: number;
    }[];
    db.close();
    expect(rows).toHaveLength(severity.enum.length * priority.enum.length);
    for (const r of rows) {
      expect(r.severity_rank).toBe(SEVERITY_RANK[r.severity]);
      expect(r.priority_rank).toBe(PRIORITY_RANK[r.priority]);
    }
  } finally {
    await engine.close();
  }
});
