// A migration of migrations.ts (its own file for its length): source maps. Shipped migrations are
// never edited.

/**
 * Source maps: one row per distinct map content of a project (`sourcemap_files`: what a lookup
 * reads, see sourcemaps/codec.ts), the text of its own sources (compressed, one row each), the
 * uploads naming them by (release, path) and by debug ID, and the raw frames of mapped reports by
 * variant identity (the board's raw view), pruned per project to the newest.
 */
export const SOURCE_MAPS = `
  CREATE TABLE sourcemap_files (id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id), hash TEXT NOT NULL, bytes INTEGER NOT NULL,
    mappings TEXT NOT NULL, checkpoints BLOB NOT NULL, meta TEXT NOT NULL,
    created_at INTEGER NOT NULL, UNIQUE (project_id, hash));
  CREATE TABLE sourcemap_sources (file_id INTEGER NOT NULL
    REFERENCES sourcemap_files(id) ON DELETE CASCADE, idx INTEGER NOT NULL, content BLOB NOT NULL,
    PRIMARY KEY (file_id, idx)) WITHOUT ROWID;
  CREATE TABLE sourcemaps (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL REFERENCES projects(id),
    release TEXT NOT NULL, path TEXT NOT NULL, debug_id TEXT,
    file_id INTEGER NOT NULL REFERENCES sourcemap_files(id), bytes INTEGER NOT NULL,
    sources INTEGER NOT NULL, uploaded_at INTEGER NOT NULL, UNIQUE (project_id, release, path));
  CREATE INDEX sourcemaps_by_debug_id ON sourcemaps (project_id, debug_id) WHERE debug_id IS NOT NULL;
  CREATE INDEX sourcemaps_by_file ON sourcemaps (file_id);
  CREATE TABLE sourcemap_reports (project_id INTEGER NOT NULL, identity TEXT NOT NULL,
    description TEXT, file_name TEXT, line_number INTEGER, notes TEXT NOT NULL, context TEXT,
    created_at INTEGER NOT NULL, PRIMARY KEY (project_id, identity)) WITHOUT ROWID;
  CREATE INDEX sourcemap_reports_by_age ON sourcemap_reports (project_id, created_at);
`;
