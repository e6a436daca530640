// An index map (`sections`, as Turbopack writes them) flattened into one regular map: each
// section's segments moved by its offset (the column offset applies to the section's first line),
// its sources and names appended, `ignoreList` renumbered. Sections must come in order and not
// overlap (ECMA-426); a nested index map is refused. A generator, sliced as ./scan.ts.
import { emptySegment, MappingsDecoder, MappingsEncoder } from './mappings.ts';
import { SLICE, TooManySegmentsError } from './scan.ts';
import { MappingsError } from './vlq.ts';

/** The fields of a regular map the service reads; `sources` keep their `sourceRoot` applied. */
export interface RegularMap {
  sources: unknown[];
  sourcesContent: unknown[];
  names: unknown[];
  mappings: string;
  ignoreList: number[];
}

/** A malformed index map (reported on `map.sections`). */
export class SectionsError extends Error {
  override name = 'SectionsError';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Flattens `sections`; throws `SectionsError`, `MappingsError` or `TooManySegmentsError`. */
export function* flattenSections(
  sections: unknown[],
  segmentsMax: number,
): Generator<void, RegularMap> {
  const out: RegularMap = {
    sources: [],
    sourcesContent: [],
    names: [],
    mappings: '',
    ignoreList: [],
  };
  const encoder = new MappingsEncoder();
  const seg = emptySegment();
  let count = 0;
  let lastLine = 0;
  let lastColumn = 0;
  for (const [i, section] of sections.entries()) {
    const { line, column, map } = sectionParts(section, i);
    if (line < lastLine || (line === lastLine && column < lastColumn)) {
      throw new SectionsError(`Section ${i} starts before the end of section ${i - 1}.`);
    }
    const sourceBase = out.sources.length;
    const nameBase = out.names.length;
    appendParts(out, map, sourceBase);
    const sourceEnd = out.sources.length;
    const nameEnd = out.names.length;
    const decoder = new MappingsDecoder(map.mappings as string);
    while (decoder.next(seg)) {
      if (seg.line === 0) seg.column += column;
      seg.line += line;
      if (seg.line < lastLine || (seg.line === lastLine && seg.column < lastColumn)) {
        throw new SectionsError(`Section ${i} overlaps the section before it.`);
      }
      if (seg.source >= 0) seg.source += sourceBase;
      if (seg.name >= 0) seg.name += nameBase;
      if (seg.source >= sourceEnd || seg.name >= nameEnd) {
        throw new MappingsError(`section ${i} names a source or name it does not have`, decoder.at);
      }
      encoder.push(seg);
      lastLine = seg.line;
      lastColumn = seg.column;
      if (++count > segmentsMax) throw new TooManySegmentsError(segmentsMax);
      if (count % SLICE === 0) yield;
    }
  }
  out.mappings = encoder.finish();
  return out;
}

function sectionParts(section: unknown, i: number) {
  const offset = isObject(section) ? section.offset : undefined;
  const map = isObject(section) ? section.map : undefined;
  if (!isObject(offset) || !isObject(map)) {
    throw new SectionsError(`Section ${i} needs an offset and a map.`);
  }
  const { line, column } = offset;
  if (!Number.isSafeInteger(line) || !Number.isSafeInteger(column) || +line! < 0 || +column! < 0) {
    throw new SectionsError(`Section ${i}'s offset needs a line and a column of 0 or more.`);
  }
  if ('sections' in map) throw new SectionsError(`Section ${i} is an index map itself.`);
  if (map.version !== 3 || typeof map.mappings !== 'string' || !Array.isArray(map.sources)) {
    throw new SectionsError(`Section ${i}'s map needs version 3, sources and mappings.`);
  }
  return { line: line as number, column: column as number, map };
}

function appendParts(out: RegularMap, map: Record<string, unknown>, sourceBase: number): void {
  const sources = map.sources as unknown[];
  const root = typeof map.sourceRoot === 'string' && map.sourceRoot ? map.sourceRoot : '';
  const content = Array.isArray(map.sourcesContent) ? map.sourcesContent : [];
  for (const [j, source] of sources.entries()) {
    const joined =
      root && typeof source === 'string' && !/^[a-z][\w+.-]*:|^\//i.test(source)
        ? `${root.replace(/\/?$/, '/')}${source}`
        : source;
    out.sources.push(joined);
    out.sourcesContent.push(content[j] ?? null);
  }
  if (Array.isArray(map.names)) for (const name of map.names) out.names.push(name);
  const ignore = Array.isArray(map.ignoreList) ? map.ignoreList : map.x_google_ignoreList;
  if (Array.isArray(ignore)) {
    for (const j of ignore) {
      if (Number.isInteger(j) && j >= 0 && j < sources.length) out.ignoreList.push(sourceBase + j);
    }
  }
}
