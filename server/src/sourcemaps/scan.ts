// Checks a map's `mappings` once, at upload: every segment decodes, points at an existing source and
// name, and there are at most `segmentsMax`; it records a checkpoint every `CHECKPOINT_EVERY`
// segments (so a lookup decodes at most that many) and, when a line's segments are out of order,
// writes the mappings again sorted. A generator: it yields every `SLICE` segments, so the caller
// can give the event loop a turn between slices of a large map (`runSliced` in ./steps.ts).
import {
  CHECKPOINT_INTS,
  emptySegment,
  MappingsDecoder,
  MappingsEncoder,
  type Segment,
} from './mappings.ts';
import { MappingsError } from './vlq.ts';

/** Segments between two checkpoints: a lookup decodes at most this many. */
export const CHECKPOINT_EVERY = 64;
/** Segments decoded between two yields. */
export const SLICE = 20_000;

/** More segments than the limit (a 422 like a malformed map, with its own message). */
export class TooManySegmentsError extends Error {
  override name = 'TooManySegmentsError';
  constructor(readonly limit: number) {
    super(`mappings decode to more than ${limit} segments`);
  }
}

export interface ScanLimits {
  sources: number;
  names: number;
  segmentsMax: number;
}

export interface ScannedMappings {
  /** The mappings as given, or rewritten with every line's segments in column order. */
  mappings: string;
  segments: number;
  /** `CHECKPOINT_INTS` integers per checkpoint (see `MappingsDecoder.saveCheckpoint`). */
  checkpoints: Int32Array;
}

/** Checks `mappings` and makes its checkpoints; throws `MappingsError` or `TooManySegmentsError`. */
export function* scanMappings(
  mappings: string,
  limits: ScanLimits,
): Generator<void, ScannedMappings> {
  const first = yield* checkpointed(mappings, limits);
  if (first.sorted) return first.scanned;
  const sorted = yield* sortLines(mappings);
  return (yield* checkpointed(sorted, limits)).scanned;
}

function* checkpointed(
  mappings: string,
  limits: ScanLimits,
): Generator<void, { scanned: ScannedMappings; sorted: boolean }> {
  const decoder = new MappingsDecoder(mappings);
  const seg = emptySegment();
  let checkpoints: Int32Array = new Int32Array(CHECKPOINT_INTS * 64);
  let count = 0;
  let sorted = true;
  let line = 0;
  let column = 0;
  for (;;) {
    if (!decoder.skipSeparators()) break;
    const at = decoder.at;
    const atLine = decoder.line;
    if (count % CHECKPOINT_EVERY === 0) {
      const i = count / CHECKPOINT_EVERY;
      if ((i + 1) * CHECKPOINT_INTS > checkpoints.length) checkpoints = grow(checkpoints);
      decoder.saveCheckpoint(checkpoints, i, 0);
    }
    decoder.next(seg);
    if (count % CHECKPOINT_EVERY === 0) {
      checkpoints[(count / CHECKPOINT_EVERY) * CHECKPOINT_INTS + 7] = seg.column;
    }
    if (++count > limits.segmentsMax) throw new TooManySegmentsError(limits.segmentsMax);
    check(seg, limits, at);
    if (seg.line === line && seg.column < column) sorted = false;
    line = atLine;
    column = seg.column;
    if (count % SLICE === 0) yield;
  }
  const used = Math.ceil(count / CHECKPOINT_EVERY) * CHECKPOINT_INTS;
  return {
    scanned: { mappings, segments: count, checkpoints: checkpoints.slice(0, used) },
    sorted,
  };
}

function check(seg: Segment, limits: ScanLimits, at: number): void {
  if (seg.source === -1) return;
  if (seg.source < 0 || seg.source >= limits.sources) {
    throw new MappingsError(`a segment names source ${seg.source} of ${limits.sources}`, at);
  }
  if (seg.sourceLine < 0 || seg.sourceColumn < 0) {
    throw new MappingsError('a segment has a negative original line or column', at);
  }
  if (seg.name !== -1 && (seg.name < 0 || seg.name >= limits.names)) {
    throw new MappingsError(`a segment names name ${seg.name} of ${limits.names}`, at);
  }
}

/** The same segments with each line's in column order (stable); one line is held at a time. */
function* sortLines(mappings: string): Generator<void, string> {
  const decoder = new MappingsDecoder(mappings);
  const encoder = new MappingsEncoder();
  let line: Segment[] = [];
  const flush = () => {
    line.sort((a, b) => a.column - b.column);
    for (const seg of line) encoder.push(seg);
    line = [];
  };
  for (let seg = emptySegment(), n = 1; decoder.next(seg); seg = emptySegment(), n++) {
    if (line.length > 0 && line[0]!.line !== seg.line) flush();
    line.push(seg);
    if (n % SLICE === 0) yield;
  }
  flush();
  return encoder.finish();
}

function grow(array: Int32Array): Int32Array {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}
