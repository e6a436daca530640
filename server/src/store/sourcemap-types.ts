// The source-map storage seam, beside the ingestion `Store` and the `BoardStore`: uploads with
// their limits and retention, the index a project's reports are mapped through, the compiled maps
// and their sources' text, and the raw frames of mapped reports (the board's raw view). Each
// engine implements it on a connection or pool of its own (store/sqlite/sourcemaps.ts,
// store/pg/sourcemaps.ts).
import type { MaybePromise } from '../domain/types.ts';
import type { StoredMap, StoredSource } from '../sourcemaps/codec.ts';

/** A stored upload, as `svc-server sourcemaps list` and the upload's answer show it. */
export interface SourceMapEntry {
  id: number;
  projectId: number;
  release: string;
  path: string;
  debugId: string | null;
  /** The upload's body size. */
  bytes: number;
  /** Sources its map names. */
  sources: number;
  /** Unix ms. */
  uploadedAt: number;
  /** The stored map (one per distinct content in a project: releases share unchanged chunks'). */
  mapId: number;
}

export interface NewSourceMap {
  projectId: number;
  release: string;
  path: string;
  debugId: string | null;
  /** sha256 of the compiled content (`CompiledUpload.hash`). */
  hash: string;
  bytes: number;
  sources: number;
  stored: StoredMap;
  contents: StoredSource[];
}

export interface SourceMapLimits {
  /** Map bytes (as uploaded, each distinct map once) one project keeps. */
  projectBytesMax: number;
  /** Releases whose maps a project keeps. */
  releasesKept: number;
}

export type PutOutcome =
  | { kind: 'created' | 'replaced' | 'same'; entry: SourceMapEntry; pruned: string[] }
  | { kind: 'project_full'; usedBytes: number; limit: number };

/** One row of a project's index: which stored map a (release, path) names. */
export interface SourceMapIndexRow {
  release: string;
  path: string;
  mapId: number;
  hash: string;
  uploadedAt: number;
}

/** A mapped report's raw text, kept beside its variant (by the variant's identity). */
export interface RawReport {
  projectId: number;
  identity: string;
  description: string | null;
  fileName: string | null;
  lineNumber: number | null;
  /** JSON of the frame notes (`FrameNote[]`). */
  notes: string;
  /** JSON of the code context (`CodeContext`), or null. */
  context: string | null;
  createdAt: number;
}

export interface SourceMapStore {
  /**
   * Stores an upload atomically: the same content for its (release, path) is `same` (nothing
   * written); a new release first deletes the maps of releases past `releasesKept`; past
   * `projectBytesMax` nothing is written (`project_full`).
   */
  putSourceMap(input: NewSourceMap, limits: SourceMapLimits, now: number): MaybePromise<PutOutcome>;
  listSourceMaps(projectId: number, release?: string): MaybePromise<SourceMapEntry[]>;
  /** Deletes a release's maps, or one upload by id; returns how many uploads went. */
  deleteSourceMaps(
    projectId: number,
    which: { release: string } | { id: number },
  ): MaybePromise<number>;
  /** Every (release, path) of the project with its stored map, for mapping reports. */
  sourceMapIndex(projectId: number): MaybePromise<SourceMapIndexRow[]>;
  loadSourceMap(mapId: number): MaybePromise<StoredMap | undefined>;
  /** One source's compressed text, or undefined (a dependency, no text, or the map is gone). */
  sourceContent(mapId: number, source: number): MaybePromise<Buffer | undefined>;
  /** Keeps each row unless its (project, identity) has one already (the first raw text stays). */
  saveRawReports(rows: RawReport[]): MaybePromise<void>;
  rawReport(projectId: number, identity: string): MaybePromise<RawReport | undefined>;
  close(): MaybePromise<void>;
}
