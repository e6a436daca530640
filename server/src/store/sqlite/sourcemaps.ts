import type Database from 'better-sqlite3';
import { releasesToPrune } from '../../sourcemaps/retention.ts';
import {
  ENTRY_COLUMNS,
  ProjectFullError,
  RAW_COLUMNS,
  RAW_REPORTS_KEPT,
  toStoredMap,
} from '../sourcemap-rows.ts';
import type {
  NewSourceMap,
  PutOutcome,
  RawReport,
  SourceMapEntry,
  SourceMapLimits,
  SourceMapStore,
} from '../sourcemap-types.ts';
import { openDatabaseFile } from './database-file.ts';
import { migrate } from './migrations.ts';
import { writesWhenFree } from './writes-when-free.ts';

// Source maps on the SQLite file of the ingestion store, on a connection of their own (as the
// board's): reads never wait (WAL), and each upload is one IMMEDIATE transaction retried off the
// event loop while another process holds the write lock (writes-when-free.ts).

export function openSqliteSourceMapStore(opts: { dataDir: string }): SourceMapStore {
  const db = openDatabaseFile(opts.dataDir);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // The ingestion's connection checkpoints the WAL (store/sqlite/checkpointer.ts).
  db.pragma('wal_autocheckpoint = 0');
  migrate(db);
  const whenFree = writesWhenFree(db);
  const sql = statements(db);
  const put = db.transaction((input: NewSourceMap, limits: SourceMapLimits, now: number) =>
    putIn(sql, input, limits, now),
  );
  const remove = db.transaction(
    (projectId: number, which: { release: string } | { id: number }) => {
      const deleted =
        'release' in which
          ? sql.deleteRelease.run(projectId, which.release).changes
          : sql.deleteEntry.run(projectId, which.id).changes;
      sql.deleteOrphans.run(projectId);
      return deleted;
    },
  );
  const saveRaw = db.transaction((rows: RawReport[]) => {
    const projects = new Set<number>();
    for (const r of rows) {
      const { changes } = sql.insertRaw.run(
        r.projectId,
        r.identity,
        r.description,
        r.fileName,
        r.lineNumber,
        r.notes,
        r.context,
        r.createdAt,
      );
      if (changes) projects.add(r.projectId);
    }
    for (const projectId of projects) sql.pruneRaw.run(projectId, projectId, RAW_REPORTS_KEPT);
  });
  return {
    putSourceMap: (input, limits, now) =>
      whenFree(() => {
        try {
          return put.immediate(input, limits, now);
        } catch (error) {
          if (!(error instanceof ProjectFullError)) throw error;
          return { kind: 'project_full', usedBytes: error.usedBytes, limit: error.limit } as const;
        }
      }),
    listSourceMaps: (projectId, release) =>
      (release === undefined
        ? sql.list.all(projectId)
        : sql.listRelease.all(projectId, release)) as SourceMapEntry[],
    deleteSourceMaps: (projectId, which) => whenFree(() => remove.immediate(projectId, which)),
    sourceMapIndex: (projectId) => sql.index.all(projectId) as never,
    loadSourceMap: (mapId) => {
      const row = sql.file.get(mapId) as Parameters<typeof toStoredMap>[0] | undefined;
      return row && toStoredMap(row);
    },
    sourceContent: (mapId, source) =>
      (sql.content.get(mapId, source) as { content: Buffer } | undefined)?.content,
    saveRawReports: (rows) => whenFree(() => saveRaw.immediate(rows)),
    rawReport: (projectId, identity) => sql.raw.get(projectId, identity) as RawReport | undefined,
    close: () => {
      db.close();
    },
  };
}

type Statements = ReturnType<typeof statements>;

function statements(db: Database.Database) {
  const entries = `SELECT ${ENTRY_COLUMNS} FROM sourcemaps`;
  return {
    existing: db.prepare(
      `SELECT s.id, f.hash FROM sourcemaps s JOIN sourcemap_files f ON f.id = s.file_id
       WHERE s.project_id = ? AND s.release = ? AND s.path = ?`,
    ),
    releases: db.prepare(
      `SELECT release, MIN(uploaded_at) AS firstAt FROM sourcemaps WHERE project_id = ?
       GROUP BY release`,
    ),
    deleteRelease: db.prepare('DELETE FROM sourcemaps WHERE project_id = ? AND release = ?'),
    deleteEntry: db.prepare('DELETE FROM sourcemaps WHERE project_id = ? AND id = ?'),
    deleteOrphans: db.prepare(
      `DELETE FROM sourcemap_files WHERE project_id = ? AND NOT EXISTS
       (SELECT 1 FROM sourcemaps s WHERE s.file_id = sourcemap_files.id)`,
    ),
    fileByHash: db.prepare('SELECT id FROM sourcemap_files WHERE project_id = ? AND hash = ?'),
    insertFile: db.prepare(
      `INSERT INTO sourcemap_files (project_id, hash, bytes, mappings, checkpoints, meta, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertSource: db.prepare(
      'INSERT INTO sourcemap_sources (file_id, idx, content) VALUES (?, ?, ?)',
    ),
    insertEntry: db.prepare(
      `INSERT INTO sourcemaps (project_id, release, path, debug_id, file_id, bytes, sources,
         uploaded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updateEntry: db.prepare(
      `UPDATE sourcemaps SET debug_id = ?, file_id = ?, bytes = ?, sources = ?, uploaded_at = ?
       WHERE id = ?`,
    ),
    used: db.prepare(
      'SELECT COALESCE(SUM(bytes), 0) AS used FROM sourcemap_files WHERE project_id = ?',
    ),
    entry: db.prepare(`${entries} WHERE id = ?`),
    list: db.prepare(`${entries} WHERE project_id = ? ORDER BY uploaded_at DESC, id DESC`),
    listRelease: db.prepare(
      `${entries} WHERE project_id = ? AND release = ? ORDER BY uploaded_at DESC, id DESC`,
    ),
    index: db.prepare(
      `SELECT s.release, s.path, s.file_id AS mapId, f.hash, s.uploaded_at AS uploadedAt
       FROM sourcemaps s JOIN sourcemap_files f ON f.id = s.file_id WHERE s.project_id = ?`,
    ),
    file: db.prepare('SELECT mappings, checkpoints, meta FROM sourcemap_files WHERE id = ?'),
    content: db.prepare('SELECT content FROM sourcemap_sources WHERE file_id = ? AND idx = ?'),
    insertRaw: db.prepare(
      `INSERT OR IGNORE INTO sourcemap_reports (project_id, identity, description, file_name,
         line_number, notes, context, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    pruneRaw: db.prepare(
      `DELETE FROM sourcemap_reports WHERE project_id = ? AND created_at <
         (SELECT created_at FROM sourcemap_reports WHERE project_id = ?
          ORDER BY created_at DESC LIMIT 1 OFFSET ?)`,
    ),
    raw: db.prepare(
      `SELECT ${RAW_COLUMNS} FROM sourcemap_reports WHERE project_id = ? AND identity = ?`,
    ),
  };
}

/** One upload inside the caller's transaction; throws `ProjectFullError` to roll it back. */
function putIn(
  sql: Statements,
  input: NewSourceMap,
  limits: SourceMapLimits,
  now: number,
): PutOutcome {
  const { projectId, release, path } = input;
  const existing = sql.existing.get(projectId, release, path) as
    { id: number; hash: string } | undefined;
  if (existing?.hash === input.hash) {
    return { kind: 'same', entry: sql.entry.get(existing.id) as SourceMapEntry, pruned: [] };
  }
  const pruned = existing
    ? []
    : releasesToPrune(sql.releases.all(projectId) as never, release, limits.releasesKept);
  for (const old of pruned) sql.deleteRelease.run(projectId, old);
  let file = (sql.fileByHash.get(projectId, input.hash) as { id: number } | undefined)?.id;
  if (file === undefined) {
    const { stored } = input;
    file = Number(
      sql.insertFile.run(
        projectId,
        input.hash,
        input.bytes,
        stored.mappings,
        stored.checkpoints,
        stored.meta,
        now,
      ).lastInsertRowid,
    );
    for (const s of input.contents) sql.insertSource.run(file, s.index, s.content);
  }
  let id: number;
  if (existing) {
    id = existing.id;
    sql.updateEntry.run(input.debugId, file, input.bytes, input.sources, now, id);
  } else {
    id = Number(
      sql.insertEntry.run(
        projectId,
        release,
        path,
        input.debugId,
        file,
        input.bytes,
        input.sources,
        now,
      ).lastInsertRowid,
    );
  }
  sql.deleteOrphans.run(projectId);
  const { used } = sql.used.get(projectId) as { used: number };
  if (used > limits.projectBytesMax) throw new ProjectFullError(used, limits.projectBytesMax);
  return {
    kind: existing ? 'replaced' : 'created',
    entry: sql.entry.get(id) as SourceMapEntry,
    pruned,
  };
}
