// Row shapes of the source-map tables, shared by both engines (same columns; times in Unix ms).
import type { StoredMap } from '../sourcemaps/codec.ts';

/** The select list of an upload as `SourceMapEntry` (both engines quote the camel-case names). */
export const ENTRY_COLUMNS = `id, project_id AS "projectId", release, path, debug_id AS "debugId",
  bytes, sources, uploaded_at AS "uploadedAt", file_id AS "mapId"`;

export const RAW_COLUMNS = `project_id AS "projectId", identity, description,
  file_name AS "fileName", line_number AS "lineNumber", notes, context, created_at AS "createdAt"`;

/** Raw rows a project keeps (the newest); older ones go as new ones come. */
export const RAW_REPORTS_KEPT = 10_000;

/** A project's maps would pass its storage limit: nothing is written. */
export class ProjectFullError extends Error {
  override name = 'ProjectFullError';
  constructor(
    readonly usedBytes: number,
    readonly limit: number,
  ) {
    super(`source maps of the project would take ${usedBytes} bytes, over ${limit}`);
  }
}

export const toStoredMap = (row: {
  mappings: string;
  checkpoints: Buffer | Uint8Array;
  meta: string;
}): StoredMap => ({
  mappings: row.mappings,
  checkpoints: Buffer.isBuffer(row.checkpoints) ? row.checkpoints : Buffer.from(row.checkpoints),
  meta: row.meta,
});
