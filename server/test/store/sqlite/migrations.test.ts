import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../../src/store/sqlite/driver.ts';
import { expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../src/store/sqlite/migrations.ts';

it('upgrades a version-1 database with data to the latest version', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-migrate-'));
  try {
    const db = openSqlite(join(dir, 'svc.sqlite'));
    db.exec(MIGRATIONS[0]!);
    db.pragma('user_version = 1');
    db.exec(`INSERT INTO accounts VALUES (1, 'A', 'team', 0);
      INSERT INTO projects VALUES (1, 1, 'P', 'active', 0);
      INSERT INTO cards (id, project_id, title, description_type, priority, severity, tags, status,
        occurrence_count, created_at, last_seen_at) VALUES (1, 1, 'T', 'plain', 'low', 'minor', '[]', 'todo', 5, 0, 0);
      INSERT INTO card_usage VALUES (1, 100, 2), (1, 101, 3);`);
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT usage_day, usage_count, occurrence_count FROM cards').get()).toEqual({
      usage_day: 101,
      usage_count: 3,
      occurrence_count: 5,
    });
    migrate(db); // idempotent
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('upgrades a version-3 database with cards to triage (4): counts per status, then kept by triggers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-migrate-'));
  try {
    const db = openSqlite(join(dir, 'svc.sqlite'));
    for (const sql of MIGRATIONS.slice(0, 3)) db.exec(sql);
    db.pragma('user_version = 3');
    const card = db.prepare(`INSERT INTO cards (project_id, title, description_type, priority,
      severity, tags, status, occurrence_count, created_at, last_seen_at)
      VALUES (?, ?, 'plain', 'low', 'minor', '[]', 'todo', 1, 0, 0)`);
    db.exec(`INSERT INTO accounts VALUES (1, 'A', 'team', 0);
      INSERT INTO projects VALUES (1, 1, 'P', 'active', 0), (2, 1, 'Q', 'active', 0);`);
    card.run(1, 'a');
    card.run(1, 'b');
    card.run(2, 'c');
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    const counts = () =>
      db
        .prepare('SELECT * FROM card_status_counts WHERE count > 0 ORDER BY project_id, status')
        .all();
    expect(counts()).toEqual([
      { project_id: 1, status: 'todo', count: 2 },
      { project_id: 2, status: 'todo', count: 1 },
    ]);
    expect(db.prepare('SELECT DISTINCT regressions, last_regressed_at FROM cards').all()).toEqual([
      { regressions: 0, last_regressed_at: null },
    ]);
    db.prepare("UPDATE cards SET status = 'done' WHERE title = 'a'").run();
    db.prepare("UPDATE cards SET status = 'done', occurrence_count = 2 WHERE title = 'a'").run();
    card.run(2, 'd');
    expect(counts()).toEqual([
      { project_id: 1, status: 'done', count: 1 },
      { project_id: 1, status: 'todo', count: 1 },
      { project_id: 2, status: 'todo', count: 2 },
    ]);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
