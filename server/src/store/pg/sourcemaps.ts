import type pg from 'pg';
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
  SourceMapIndexRow,
  SourceMapLimits,
  SourceMapStore,
} from '../sourcemap-types.ts';
import { migratePg } from './migrations.ts';
import { createPgPool, withinDeadline } from './pool.ts';
import { withoutNul } from './text.ts';

// Source maps on PostgreSQL, over a small pool of their own. An upload is one transaction that
// first takes a transaction-scoped advisory lock on its project, so concurrent uploads of one
// project (from any instance) apply one after the other and the retention and the storage limit
// see each other's writes. Every query and transaction runs within the deadline (a 503 past it).

/** The advisory lock class of source-map writes (the second key is the project id). */
const UPLOAD_LOCK = 0x5fc_0002;
/** Reads on a report's path (a project's index, a map): as the key lookups', then a 503. */
export const SOURCEMAP_READ_DEADLINE_MS = 5_000;
/** An upload's transaction writes megabytes; slower than this is a database not answering. */
export const SOURCEMAP_WRITE_DEADLINE_MS = 30_000;

export async function openPgSourceMapStore(opts: {
  url: string;
  /** @default SOURCEMAP_READ_DEADLINE_MS */
  readDeadlineMs?: number;
  /** @default SOURCEMAP_WRITE_DEADLINE_MS */
  writeDeadlineMs?: number;
}): Promise<SourceMapStore> {
  const pool = createPgPool({ url: opts.url, max: 3 });
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = withinDeadline(pool, opts.readDeadlineMs ?? SOURCEMAP_READ_DEADLINE_MS);
  const writes = withinDeadline(pool, opts.writeDeadlineMs ?? SOURCEMAP_WRITE_DEADLINE_MS);
  const entries = `SELECT ${ENTRY_COLUMNS} FROM sourcemaps`;
  return {
    putSourceMap: async (input, limits, now) => {
      try {
        return await writes.transaction((client) => putIn(client, input, limits, now));
      } catch (error) {
        if (!(error instanceof ProjectFullError)) throw error;
        return { kind: 'project_full', usedBytes: error.usedBytes, limit: error.limit };
      }
    },
    listSourceMaps: (projectId, release) =>
      release === undefined
        ? db.query<SourceMapEntry>(
            `${entries} WHERE project_id = $1 ORDER BY uploaded_at DESC, id DESC`,
            [projectId],
          )
        : db.query<SourceMapEntry>(
            `${entries} WHERE project_id = $1 AND release = $2 ORDER BY uploaded_at DESC, id DESC`,
            [projectId, withoutNul(release)],
          ),
    deleteSourceMaps: (projectId, which) =>
      writes.transaction(async (client) => {
        await lockProject(client, projectId);
        const { rowCount } =
          'release' in which
            ? await client.query('DELETE FROM sourcemaps WHERE project_id = $1 AND release = $2', [
                projectId,
                withoutNul(which.release),
              ])
            : await client.query('DELETE FROM sourcemaps WHERE project_id = $1 AND id = $2', [
                projectId,
                which.id,
              ]);
        await deleteOrphans(client, projectId);
        return rowCount ?? 0;
      }),
    sourceMapIndex: (projectId) =>
      db.query<SourceMapIndexRow>(
        `SELECT s.release, s.path, s.file_id AS "mapId", f.hash, s.uploaded_at AS "uploadedAt"
         FROM sourcemaps s JOIN sourcemap_files f ON f.id = s.file_id WHERE s.project_id = $1`,
        [projectId],
      ),
    loadSourceMap: async (mapId) => {
      const [row] = await db.query<{ mappings: string; checkpoints: Buffer; meta: string }>(
        'SELECT mappings, checkpoints, meta FROM sourcemap_files WHERE id = $1',
        [mapId],
      );
      return row && toStoredMap(row);
    },
    sourceContent: async (mapId, source) =>
      (
        await db.query<{ content: Buffer }>(
          'SELECT content FROM sourcemap_sources WHERE file_id = $1 AND idx = $2',
          [mapId, source],
        )
      )[0]?.content,
    saveRawReports: (rows) => db.transaction((client) => saveRaw(client, rows)),
    rawReport: async (projectId, identity) =>
      (
        await db.query<RawReport>(
          `SELECT ${RAW_COLUMNS} FROM sourcemap_reports WHERE project_id = $1 AND identity = $2`,
          [projectId, identity],
        )
      )[0],
    close: () => pool.end(),
  };
}

const lockProject = (client: pg.PoolClient, projectId: number) =>
  client.query('SELECT pg_advisory_xact_lock($1, $2)', [UPLOAD_LOCK, projectId]);

const deleteOrphans = (client: pg.PoolClient, projectId: number) =>
  client.query(
    `DELETE FROM sourcemap_files f WHERE f.project_id = $1
     AND NOT EXISTS (SELECT 1 FROM sourcemaps s WHERE s.file_id = f.id)`,
    [projectId],
  );

/** One upload in the caller's transaction; throws `ProjectFullError` to roll it back. */
async function putIn(
  client: pg.PoolClient,
  input: NewSourceMap,
  limits: SourceMapLimits,
  now: number,
): Promise<PutOutcome> {
  const projectId = input.projectId;
  const release = withoutNul(input.release);
  const path = withoutNul(input.path);
  await lockProject(client, projectId);
  const entry = async (id: number) =>
    (
      await client.query<SourceMapEntry>(`SELECT ${ENTRY_COLUMNS} FROM sourcemaps WHERE id = $1`, [
        id,
      ])
    ).rows[0]!;
  const existing = (
    await client.query<{ id: number; hash: string }>(
      `SELECT s.id, f.hash FROM sourcemaps s JOIN sourcemap_files f ON f.id = s.file_id
       WHERE s.project_id = $1 AND s.release = $2 AND s.path = $3`,
      [projectId, release, path],
    )
  ).rows[0];
  if (existing?.hash === input.hash)
    return { kind: 'same', entry: await entry(existing.id), pruned: [] };
  const pruned = existing
    ? []
    : await pruneReleases(client, projectId, release, limits.releasesKept);
  const file = await fileFor(client, input, now);
  const id = existing
    ? (
        await client.query<{ id: number }>(
          `UPDATE sourcemaps SET debug_id = $1, file_id = $2, bytes = $3, sources = $4,
             uploaded_at = $5 WHERE id = $6 RETURNING id`,
          [input.debugId, file, input.bytes, input.sources, now, existing.id],
        )
      ).rows[0]!.id
    : (
        await client.query<{ id: number }>(
          `INSERT INTO sourcemaps (project_id, release, path, debug_id, file_id, bytes, sources,
             uploaded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
          [projectId, release, path, input.debugId, file, input.bytes, input.sources, now],
        )
      ).rows[0]!.id;
  await deleteOrphans(client, projectId);
  const { used } = (
    await client.query<{ used: number }>(
      'SELECT COALESCE(SUM(bytes), 0)::bigint AS used FROM sourcemap_files WHERE project_id = $1',
      [projectId],
    )
  ).rows[0]!;
  if (used > limits.projectBytesMax) throw new ProjectFullError(used, limits.projectBytesMax);
  return { kind: existing ? 'replaced' : 'created', entry: await entry(id), pruned };
}

async function pruneReleases(
  client: pg.PoolClient,
  projectId: number,
  release: string,
  kept: number,
): Promise<string[]> {
  const { rows } = await client.query<{ release: string; firstAt: number }>(
    `SELECT release, MIN(uploaded_at) AS "firstAt" FROM sourcemaps WHERE project_id = $1
     GROUP BY release`,
    [projectId],
  );
  const pruned = releasesToPrune(rows, release, kept);
  if (pruned.length) {
    await client.query('DELETE FROM sourcemaps WHERE project_id = $1 AND release = ANY($2)', [
      projectId,
      pruned,
    ]);
  }
  return pruned;
}

/** The stored map with the upload's content: the project's existing one, else a new one. */
async function fileFor(client: pg.PoolClient, input: NewSourceMap, now: number): Promise<number> {
  const found = await client.query<{ id: number }>(
    'SELECT id FROM sourcemap_files WHERE project_id = $1 AND hash = $2',
    [input.projectId, input.hash],
  );
  if (found.rows[0]) return found.rows[0].id;
  const { stored } = input;
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO sourcemap_files (project_id, hash, bytes, mappings, checkpoints, meta, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      input.projectId,
      input.hash,
      input.bytes,
      stored.mappings,
      stored.checkpoints,
      stored.meta,
      now,
    ],
  );
  const id = rows[0]!.id;
  if (input.contents.length) {
    await client.query(
      `INSERT INTO sourcemap_sources (file_id, idx, content)
       SELECT $1, idx, content FROM unnest($2::integer[], $3::bytea[]) AS c(idx, content)`,
      [id, input.contents.map((c) => c.index), input.contents.map((c) => c.content)],
    );
  }
  return id;
}

async function saveRaw(client: pg.PoolClient, rows: RawReport[]): Promise<void> {
  const projects = new Set<number>();
  for (const r of rows) {
    const { rowCount } = await client.query(
      `INSERT INTO sourcemap_reports (project_id, identity, description, file_name, line_number,
         notes, context, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (project_id, identity) DO NOTHING`,
      [
        r.projectId,
        r.identity,
        r.description === null ? null : withoutNul(r.description),
        r.fileName === null ? null : withoutNul(r.fileName),
        r.lineNumber,
        withoutNul(r.notes),
        r.context,
        r.createdAt,
      ],
    );
    if (rowCount) projects.add(r.projectId);
  }
  for (const projectId of projects) {
    await client.query(
      `DELETE FROM sourcemap_reports WHERE project_id = $1 AND created_at <
         (SELECT created_at FROM sourcemap_reports WHERE project_id = $1
          ORDER BY created_at DESC LIMIT 1 OFFSET $2)`,
      [projectId, RAW_REPORTS_KEPT],
    );
  }
}
