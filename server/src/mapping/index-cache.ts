// A project's source-map index (which stored map each (release, path) names), kept in memory so
// a report of a project without maps costs one Map lookup. Entries are reloaded in the background
// once `ttlMs` old (uploads or deletions by another instance or the CLI show after at most that;
// a report naming a chunk the index lacks reads it again sooner, see `fresher`), and dropped at
// once when this process uploads or deletes (the next report waits for the reload).
import { createByteCache, stringBytes } from '../store/byte-cache.ts';
import type { SourceMapIndexRow, SourceMapStore } from '../store/sourcemap-types.ts';

/** A project's index by chunk path. */
export type ProjectIndex = Map<string, SourceMapIndexRow[]>;

interface Slot {
  index: ProjectIndex;
  loadedAt: number;
  refreshing: boolean;
}

export class IndexCache {
  private readonly slots;
  private readonly loading = new Map<number, Promise<ProjectIndex>>();
  /** Bumped when a project's index is dropped, so a load begun before it is not kept. */
  private generation = 0;

  constructor(
    private readonly store: SourceMapStore,
    private readonly opts: { now: () => number; ttlMs: number; maxBytes: number },
  ) {
    this.slots = createByteCache<number, Slot>({
      maxBytes: opts.maxBytes,
      sizeOf: (_, slot) => indexBytes(slot.index),
    });
  }

  /** The project's index: at once when known (reloaded in the background when old), else loaded. */
  get(projectId: number): ProjectIndex | Promise<ProjectIndex> {
    const slot = this.slots.get(projectId);
    if (!slot) return this.load(projectId);
    if (!slot.refreshing && this.opts.now() - slot.loadedAt >= this.opts.ttlMs) {
      slot.refreshing = true;
      // A failed refresh keeps the old index; the next report past the TTL tries again.
      this.load(projectId).catch(() => {
        slot.refreshing = false;
      });
    }
    return slot.index;
  }

  /**
   * The project's index read again now, unless it was read less than `minAgeMs` ago (then the
   * index in memory): for a report naming a chunk the index does not know, which another instance
   * may have had uploaded since. Bounded: one read per project per `minAgeMs`.
   */
  fresher(projectId: number, minAgeMs: number): ProjectIndex | Promise<ProjectIndex> {
    const slot = this.slots.get(projectId);
    if (slot && this.opts.now() - slot.loadedAt < minAgeMs) return slot.index;
    return this.load(projectId);
  }

  /** Forgets the project's index (after this process changed its maps). */
  drop(projectId: number): void {
    this.generation++;
    this.slots.delete(projectId);
    this.loading.delete(projectId);
  }

  private load(projectId: number): Promise<ProjectIndex> {
    let pending = this.loading.get(projectId);
    if (pending) return pending;
    const generation = this.generation;
    pending = Promise.resolve(this.store.sourceMapIndex(projectId))
      .then((rows) => {
        const index: ProjectIndex = new Map();
        for (const row of rows) {
          const list = index.get(row.path);
          if (list) list.push(row);
          else index.set(row.path, [row]);
        }
        if (generation === this.generation) {
          this.slots.set(projectId, { index, loadedAt: this.opts.now(), refreshing: false });
        }
        return index;
      })
      .finally(() => {
        if (this.loading.get(projectId) === pending) this.loading.delete(projectId);
      });
    this.loading.set(projectId, pending);
    return pending;
  }
}

function indexBytes(index: ProjectIndex): number {
  let bytes = 64;
  for (const [path, rows] of index) {
    bytes += stringBytes(path) + 32;
    for (const row of rows) bytes += 96 + stringBytes(row.release) + stringBytes(row.hash);
  }
  return bytes;
}
