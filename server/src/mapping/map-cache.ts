// Compiled maps by stored id, within a byte budget (least recently used go first); each loaded
// once however many reports ask at the same time. An upload puts its map in at once.
import { compiledBytes, compiledMap } from '../sourcemaps/codec.ts';
import type { CompiledMap } from '../sourcemaps/lookup.ts';
import { createByteCache } from '../store/byte-cache.ts';
import type { SourceMapStore } from '../store/sourcemap-types.ts';

export class MapCache {
  private readonly maps;
  private readonly loading = new Map<number, Promise<CompiledMap | undefined>>();

  constructor(
    private readonly store: SourceMapStore,
    maxBytes: number,
  ) {
    this.maps = createByteCache<number, CompiledMap>({
      maxBytes,
      sizeOf: (_, map) => compiledBytes(map),
    });
  }

  /** The map if it is in memory (marks it used). */
  peek(mapId: number): CompiledMap | undefined {
    return this.maps.get(mapId);
  }

  /** Loads the maps not in memory; resolves when each is in (or known gone). */
  async load(mapIds: Iterable<number>): Promise<void> {
    const waits: Promise<unknown>[] = [];
    for (const id of mapIds) if (!this.maps.has(id)) waits.push(this.loadOne(id));
    await Promise.all(waits);
  }

  put(mapId: number, map: CompiledMap): void {
    this.maps.set(mapId, map);
  }

  get bytes(): number {
    return this.maps.bytes;
  }

  private loadOne(mapId: number): Promise<CompiledMap | undefined> {
    let pending = this.loading.get(mapId);
    if (!pending) {
      pending = Promise.resolve(this.store.loadSourceMap(mapId))
        .then((stored) => {
          const map = stored && compiledMap(stored);
          if (map) this.maps.set(mapId, map);
          return map;
        })
        .finally(() => this.loading.delete(mapId));
      this.loading.set(mapId, pending);
    }
    return pending;
  }
}
