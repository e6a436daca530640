import type Database from 'better-sqlite3';

/** Card columns the ingest keeps in memory: all but the description (tens of kB at most). */
const HEAD = `id, project_id, title, description_type, priority, severity, tags, status,
  occurrence_count, file_name, line_number, created_at, last_seen_at, usage_day, usage_count,
  regressions, last_regressed_at, resolved_env, resolved_release`;

/** The ingest's prepared statements (SQLite). */
export function prepareIngest(db: Database.Database) {
  return {
    state: db.prepare('SELECT state FROM projects WHERE id = ?').pluck(),
    accountUsage: db
      .prepare('SELECT COALESCE(SUM(count), 0) FROM usage WHERE account_id = ? AND day = ?')
      .pluck(),
    projectUsage: db
      .prepare('SELECT count FROM usage WHERE account_id = ? AND day = ? AND project_id = ?')
      .pluck(),
    activeProjects: db
      .prepare("SELECT COUNT(*) FROM projects WHERE account_id = ? AND state = 'active'")
      .pluck(),
    usageUp: db.prepare(
      `INSERT INTO usage (account_id, day, project_id, count) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id, day, project_id) DO UPDATE SET count = count + ?`,
    ),
    headById: db.prepare(`SELECT ${HEAD} FROM cards WHERE id = ?`),
    description: db.prepare('SELECT description FROM cards WHERE id = ?').pluck(),
    idByTitle: db
      .prepare('SELECT id FROM cards WHERE project_id = ? AND title = ? ORDER BY id LIMIT 1')
      .pluck(),
    byDescription: db.prepare(
      `SELECT ${HEAD} FROM cards WHERE project_id = ? AND description_hash = ? AND description = ?
       ORDER BY id LIMIT 1`,
    ),
    insertCard: db.prepare(
      `INSERT INTO cards (project_id, title, description, description_hash, description_type, priority,
         severity, tags, status, occurrence_count, file_name, line_number, created_at, last_seen_at,
         usage_day, usage_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    touchCard: db.prepare(
      `UPDATE cards SET occurrence_count = ?, last_seen_at = ?, tags = ?, usage_day = ?,
         usage_count = ? WHERE id = ?`,
    ),
    /** A card's reports from one environment in a batch (title and ranks copied for its sorts). */
    envUp: db.prepare(
      `INSERT INTO card_envs (card_id, env, project_id, status, title, severity_rank,
         priority_rank, occurrence_count, first_seen_at, last_seen_at)
       SELECT id, ?, project_id, status, title, severity_rank, priority_rank, ?, ?, ? FROM cards
       WHERE id = ?
       ON CONFLICT (card_id, env) DO UPDATE SET
         occurrence_count = occurrence_count + excluded.occurrence_count,
         first_seen_at = min(first_seen_at, excluded.first_seen_at),
         last_seen_at = max(last_seen_at, excluded.last_seen_at)`,
    ),
    releaseUp: db.prepare(
      'INSERT OR IGNORE INTO releases (project_id, name, first_seen_at) VALUES (?, ?, ?)',
    ),
    releaseSeen: db.prepare('SELECT id FROM releases WHERE project_id = ? AND name = ?').pluck(),
    touchCounters: db.prepare(
      `UPDATE cards SET occurrence_count = ?, last_seen_at = ?, usage_day = ?, usage_count = ?
       WHERE id = ?`,
    ),
  };
}
