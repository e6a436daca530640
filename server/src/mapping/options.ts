// The source-map options of `startServer` (`sourceMaps`) and `svc-server serve --sourcemap-*`,
// with their defaults: the limits from the spec's `x-svc-sourcemaps` (SOURCEMAP_LIMITS).
import { SOURCEMAP_LIMITS } from '../generated/limits.gen.ts';
import type { UploadLimits } from './uploads.ts';

export interface SourceMapOptions {
  /** Largest upload body, bytes (larger: 413). @default 33554432 (32 MiB, `x-svc-sourcemaps`) */
  fileBytesMax?: number;
  /** Map bytes (as uploaded, each distinct map once) a project keeps; past it an upload is 413. @default 1073741824 (1 GiB) */
  projectBytesMax?: number;
  /** Releases whose maps a project keeps; a new release's first upload deletes the oldest past it. @default 20 */
  releasesKept?: number;
  /** Most `mappings` segments one map may decode to (more: 422). @default 4000000 */
  segmentsMax?: number;
  /** Most sources one map may name (more: 422). @default 50000 */
  sourcesMax?: number;
  /** Bytes of compiled maps kept in memory for ingestion. @default 67108864 (64 MiB) */
  cacheBytes?: number;
  /** A project's list of maps is read again after this many ms (uploads through another instance or the CLI show then). @default 5000 */
  indexTtlMs?: number;
  /** Upload bodies held in memory at once; past it an upload is answered 503 with Retry-After. @default twice `fileBytesMax` */
  uploadBudgetBytes?: number;
}

export type ResolvedSourceMapOptions = UploadLimits &
  Required<Pick<SourceMapOptions, 'cacheBytes' | 'indexTtlMs' | 'uploadBudgetBytes'>>;

export function resolveSourceMapOptions(opts: SourceMapOptions = {}): ResolvedSourceMapOptions {
  const fileBytesMax = opts.fileBytesMax ?? SOURCEMAP_LIMITS.fileBytesMax;
  const resolved = {
    fileBytesMax,
    projectBytesMax: opts.projectBytesMax ?? SOURCEMAP_LIMITS.projectBytesMax,
    releasesKept: opts.releasesKept ?? SOURCEMAP_LIMITS.releasesKept,
    segmentsMax: opts.segmentsMax ?? SOURCEMAP_LIMITS.segmentsMax,
    sourcesMax: opts.sourcesMax ?? SOURCEMAP_LIMITS.sourcesMax,
    cacheBytes: opts.cacheBytes ?? 64 * 1024 * 1024,
    indexTtlMs: opts.indexTtlMs ?? 5000,
    uploadBudgetBytes: opts.uploadBudgetBytes ?? 2 * fileBytesMax,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value < (name === 'indexTtlMs' ? 0 : 1)) {
      throw new TypeError(`sourceMaps.${name} must be a positive integer, got ${value}.`);
    }
  }
  return resolved;
}
