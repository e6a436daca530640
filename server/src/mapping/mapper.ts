// The mapping step of ingestion, between validation and the store's ingest (route -> auth ->
// map -> accept -> store): a report whose frames or location name a chunk with an uploaded map is
// rewritten to its original places before deduplication, so the same error from two builds is one
// card. A project without maps costs one Map lookup; a report whose chunks' maps are in memory is
// mapped synchronously; otherwise the maps are loaded first (once, however many reports wait).
import { variantIdentity } from '../accept/fold.ts';
import type { TaskReport } from '../domain/types.ts';
import type { CompiledMap } from '../sourcemaps/lookup.ts';
import {
  type ChunkMap,
  type MappedReport,
  mapReport,
  reportPaths,
  type Unmapped,
} from '../sourcemaps/rewrite.ts';
import { StoreUnavailableError } from '../store/availability.ts';
import type { SourceMapIndexRow, SourceMapStore } from '../store/sourcemap-types.ts';
import { IndexCache, type ProjectIndex } from './index-cache.ts';
import { MapCache } from './map-cache.ts';
import { RawWriter } from './raw-writer.ts';
import { type MemoEntry, ReportMemo } from './report-memo.ts';

export interface ReportMapperOptions {
  store: SourceMapStore;
  now: () => number;
  /** Bytes of compiled maps kept in memory. */
  cacheBytes: number;
  /** How old a project's index may get before it is reloaded (in the background). */
  indexTtlMs: number;
}

/** The report's `release:` tag's value (the first), or undefined. */
export function releaseOf(report: TaskReport): string | undefined {
  for (const tag of report.tags) if (tag.startsWith('release:')) return tag.slice(8);
  return undefined;
}

/**
 * Which upload of `path` a report of `release` is mapped through: the release's own; else, when
 * every upload of that path holds the same content, the newest: for a report with no release, or
 * when two builds or more made that content (an unchanged chunk), never on one other build's word
 * (a name such as `index.js` says nothing of the lines); else none ("no map for this release").
 */
export function chooseUpload(
  rows: SourceMapIndexRow[] | undefined,
  release: string | undefined,
): SourceMapIndexRow | Unmapped {
  if (!rows?.length) return 'file';
  const own = release === undefined ? undefined : rows.find((r) => r.release === release);
  if (own) return own;
  if (rows.some((r) => r.hash !== rows[0]!.hash)) return 'release';
  if (release !== undefined && rows.length < 2) return 'release'; // one (release, path) row each
  return rows.reduce((a, b) => (b.uploadedAt > a.uploadedAt ? b : a));
}

/** A project's index is read again for a chunk it lacks at most this often. */
const MISS_RELOAD_MS = 1000;
/** Frame paths no build uploads: Node's own modules, V8's placeholders. */
const NOT_A_CHUNK = /^(?:node:|internal\/)|^<anonymous>$|^native$/;

export class ReportMapper {
  readonly indexes: IndexCache;
  readonly maps: MapCache;
  private readonly raw: RawWriter;
  private readonly memo = new ReportMemo(8 * 1024 * 1024);
  private failures = 0;

  constructor(private readonly opts: ReportMapperOptions) {
    this.indexes = new IndexCache(opts.store, {
      now: opts.now,
      ttlMs: opts.indexTtlMs,
      maxBytes: 16 * 1024 * 1024,
    });
    this.maps = new MapCache(opts.store, opts.cacheBytes);
    this.raw = new RawWriter(opts.store);
  }

  /**
   * The report with its frames mapped (the same object when nothing points into an upload). A
   * database that cannot be reached rejects (the report is answered 503 and sent again); any other
   * failure leaves the report as the SDK sent it (one log line per stretch of failures).
   */
  map(projectId: number, report: TaskReport): TaskReport | Promise<TaskReport> {
    try {
      const index = this.indexes.get(projectId);
      const mapped =
        index instanceof Promise
          ? index.then((known) => this.withIndex(projectId, report, known))
          : this.withIndex(projectId, report, index);
      if (!(mapped instanceof Promise)) return this.succeeded(mapped);
      return mapped.then(
        (done) => this.succeeded(done),
        (error: unknown) => this.failed(error, report),
      );
    } catch (error) {
      return this.failed(error, report);
    }
  }

  /** After this process stored or deleted maps of the project: its next report reads them anew. */
  changed(projectId: number, stored?: { mapId: number; map: CompiledMap }): void {
    this.indexes.drop(projectId);
    if (stored) this.maps.put(stored.mapId, stored.map);
  }

  /** Resolves once the raw frames queued so far are written (tests, shutdown). */
  flush(): Promise<void> {
    return this.raw.flush();
  }

  private succeeded(report: TaskReport): TaskReport {
    this.failures = 0;
    return report;
  }

  private failed(error: unknown, report: TaskReport): TaskReport {
    if (error instanceof StoreUnavailableError) throw error;
    if (this.failures++ === 0) console.error('svc-server: a report was not source-mapped:', error);
    return report;
  }

  private withIndex(
    projectId: number,
    report: TaskReport,
    index: ProjectIndex,
    again = false,
  ): TaskReport | Promise<TaskReport> {
    if (index.size === 0) return report;
    const release = releaseOf(report);
    const key = this.memo.key(index, report, release);
    const known = this.memo.get(key);
    if (known && !(known.recheckAt !== undefined && this.opts.now() >= known.recheckAt)) {
      return this.replay(report, known);
    }
    const paths = reportPaths(report);
    // A chunk the index lacks may have been uploaded through another instance since it was read:
    // the index is read again (at most once a second), and such a report's memo lasts as long.
    const unknown = [...paths].some((path) => !index.has(path) && !NOT_A_CHUNK.test(path));
    if (unknown && !again) {
      const fresher = this.indexes.fresher(projectId, MISS_RELOAD_MS);
      if (fresher !== index) {
        const retry = (known: ProjectIndex) => this.withIndex(projectId, report, known, true);
        return fresher instanceof Promise ? fresher.then(retry) : retry(fresher);
      }
    }
    const remember = { key, recheckAt: unknown ? this.opts.now() + MISS_RELOAD_MS : undefined };
    const chosen = new Map<string, SourceMapIndexRow | Unmapped>();
    for (const path of paths) {
      if (index.has(path)) chosen.set(path, chooseUpload(index.get(path), release));
    }
    if (chosen.size === 0) {
      this.memo.set(key, { recheckAt: remember.recheckAt });
      return report;
    }
    const missing: number[] = [];
    for (const row of chosen.values()) {
      if (typeof row !== 'string' && !this.maps.peek(row.mapId)) missing.push(row.mapId);
    }
    if (missing.length === 0) return this.rewrite(projectId, report, chosen, remember);
    return this.maps.load(missing).then(() => this.rewrite(projectId, report, chosen, remember));
  }

  /** A repeat of a report mapped before: its fields and raw row as they were then. */
  private replay(report: TaskReport, known: MemoEntry): TaskReport {
    if (known.raw) this.raw.add({ ...known.raw, createdAt: this.opts.now() });
    return known.fields ? { ...report, ...known.fields } : report;
  }

  private rewrite(
    projectId: number,
    report: TaskReport,
    chosen: Map<string, SourceMapIndexRow | Unmapped>,
    remember: { key: string; recheckAt: number | undefined },
  ): TaskReport {
    let complete = true;
    const resolve = (path: string): ChunkMap => {
      const row = chosen.get(path);
      if (row === undefined) return 'file';
      if (typeof row === 'string') return row;
      const map = this.maps.peek(row.mapId);
      if (!map) complete = false; // deleted meanwhile: not remembered
      return map ? { id: row.mapId, map } : 'file';
    };
    const mapped = mapReport(report, resolve);
    const raw = this.rawOf(projectId, report, mapped);
    if (complete) {
      const { description, file_name, line_number } = mapped.report;
      this.memo.set(remember.key, {
        fields: mapped.changed ? { description, file_name, line_number } : undefined,
        raw,
        recheckAt: remember.recheckAt,
      });
    }
    if (raw) this.raw.add({ ...raw, createdAt: this.opts.now() });
    return mapped.report;
  }

  private rawOf(projectId: number, raw: TaskReport, mapped: MappedReport): MemoEntry['raw'] {
    if (mapped.notes.length === 0 && !mapped.changed) return undefined;
    return {
      projectId,
      identity: variantIdentity(mapped.report),
      description: raw.description,
      fileName: raw.file_name,
      lineNumber: raw.line_number,
      notes: JSON.stringify(mapped.notes),
      context: mapped.context ? JSON.stringify(mapped.context) : null,
    };
  }
}
