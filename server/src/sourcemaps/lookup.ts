// Looks up a generated position in a compiled map: a binary search over the checkpoints, then at
// most `CHECKPOINT_EVERY` segments decoded. The answer is the runtime's (source-map-js's): the
// mapping at or before the column on that line, else the first one after it on the line.
import {
  type Definition,
  type DefinitionIndex,
  indexDefinitions,
  originalName,
} from './functions.ts';
import { CHECKPOINT_INTS, emptySegment, MappingsDecoder, type Segment } from './mappings.ts';

/** A map as the service keeps it for lookups (parsed once, cached; no `sourcesContent`). */
export interface CompiledMap {
  mappings: string;
  /** See `MappingsDecoder.saveCheckpoint`. */
  checkpoints: Int32Array;
  /** Project-relative paths (`normaliseSource`), null for a source that names no file. */
  sources: (string | null)[];
  /** 1 for a dependency's source (node_modules, `ignoreList`, bundler code). */
  dependency: Uint8Array;
  /** The map's `names` (read at upload to name the definitions; a map read back has none). */
  names: string[];
  /** Function definitions of the chunk (empty when the build sent no code), in position order. */
  definitions: Definition[];
  /** `definitions` by generated name, made at the first frame that asks. */
  definitionIndex?: DefinitionIndex;
  /** Positions looked up before (`lookupCached`): errors repeat, and so do their frames. */
  memo?: Map<number, Original | null>;
}

/** Positions remembered per map; then the memory starts over. */
const MEMO_MAX = 4096;

/** An original position, 0-based; `name` is -1 when the map names nothing there. */
export interface Original {
  source: number;
  line: number;
  column: number;
  name: number;
}

/** The original position of the 0-based generated `line`:`column`, or undefined. */
export function lookup(map: CompiledMap, line: number, column: number): Original | undefined {
  const decoder = new MappingsDecoder(map.mappings);
  const start = lastCheckpointAtOrBefore(map.checkpoints, line, column);
  if (start >= 0) decoder.restore(map.checkpoints, start);
  const seg = emptySegment();
  let below: Segment | undefined;
  let after: Segment | undefined;
  while (decoder.next(seg)) {
    if (seg.line < line) continue;
    if (seg.line > line) break;
    if (seg.column <= column) {
      below = { ...seg };
      continue;
    }
    after = seg;
    break;
  }
  // As the runtime: a lower bound without a source (1 field) gives way to the next segment.
  const found = below && below.source >= 0 ? below : below?.column === column ? undefined : after;
  if (!found || found.source < 0) return undefined;
  return {
    source: found.source,
    line: found.sourceLine,
    column: found.sourceColumn,
    name: found.name,
  };
}

/** `lookup`, remembering the answer per position of this map. */
export function lookupCached(map: CompiledMap, line: number, column: number): Original | undefined {
  const key = line * 2 ** 26 + column;
  let memo = map.memo;
  if (!memo) {
    memo = new Map();
    map.memo = memo;
  }
  let found = memo.get(key);
  if (found === undefined) {
    found = lookup(map, line, column) ?? null;
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(key, found);
  }
  return found ?? undefined;
}

/** The original name of the function `printed` at a 0-based generated position, if the map has it. */
export function functionName(
  map: CompiledMap,
  printed: string | undefined,
  line: number,
  column: number,
): string | undefined {
  if (!printed || map.definitions.length === 0) return undefined;
  map.definitionIndex ??= indexDefinitions(map.definitions);
  return originalName(map.definitionIndex, printed, line, column);
}

function lastCheckpointAtOrBefore(checkpoints: Int32Array, line: number, column: number): number {
  let lo = 0;
  let hi = checkpoints.length / CHECKPOINT_INTS - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const o = mid * CHECKPOINT_INTS;
    const l = checkpoints[o + 1]!;
    if (l < line || (l === line && checkpoints[o + 7]! <= column)) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/**
 * The original position of a whole 0-based generated line, for a report that names a line but no
 * column: the line's first mapping, when every mapping of the line is in one source.
 */
export function lookupLine(map: CompiledMap, line: number): Original | undefined {
  const decoder = new MappingsDecoder(map.mappings);
  const start = lastCheckpointAtOrBefore(map.checkpoints, line, -1);
  if (start >= 0) decoder.restore(map.checkpoints, start);
  const seg = emptySegment();
  let first: Original | undefined;
  while (decoder.next(seg)) {
    if (seg.line < line || seg.source < 0) continue;
    if (seg.line > line) break;
    if (!first) {
      first = {
        source: seg.source,
        line: seg.sourceLine,
        column: seg.sourceColumn,
        name: seg.name,
      };
    } else if (seg.source !== first.source) return undefined;
  }
  return first;
}

/**
 * The map's names at generated positions asked in increasing order (a chunk's function
 * definitions, at upload): one pass over the mappings for all of them, not a lookup each. The name
 * is the one of the mapping at or before the position on its line, as `lookup` finds it.
 */
export class NamesInOrder {
  private readonly decoder: MappingsDecoder;
  private readonly seg = emptySegment();
  /** `seg` holds a decoded segment past the last position asked. */
  private ahead = false;
  private lastLine = -1;
  private lastName = -1;

  constructor(private readonly map: CompiledMap) {
    this.decoder = new MappingsDecoder(map.mappings);
  }

  at(line: number, column: number): string | undefined {
    const seg = this.seg;
    for (;;) {
      if (!this.ahead) {
        if (!this.decoder.next(seg)) break;
        this.ahead = true;
      }
      if (seg.line > line || (seg.line === line && seg.column > column)) break;
      this.lastLine = seg.line;
      this.lastName = seg.source >= 0 ? seg.name : -1;
      this.ahead = false;
    }
    return this.lastLine === line && this.lastName >= 0 ? this.map.names[this.lastName] : undefined;
  }
}
