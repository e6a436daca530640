// A report's frames rewritten to their original places (pure): every frame of the description
// whose chunk has a map, and `file_name` / `line_number` when they point into one. What the
// caller's `resolve` says of each chunk path decides: a map, or why there is none. The result
// keeps, for the board's raw view, what became of each frame, and the top frame of the project's
// own code (its source's text is the card's code context).
import { LIMITS } from '../generated/limits.gen.ts';
import type { TaskReport } from '../domain/types.ts';
import { chunkPath, type FrameLine, type Place, parseFrame, renderFrame } from './frames.ts';
import { type CompiledMap, functionName, lookupCached, lookupLine } from './lookup.ts';

/** Why a frame was left as the SDK sent it. */
export type Unmapped = 'release' | 'file' | 'position' | 'column';

export const UNMAPPED_REASONS: Record<Unmapped, string> = {
  release: 'no map for this release',
  file: 'no map for this file',
  position: 'position outside the map',
  column: 'the frame has no column',
};

/** A chunk's map (and the id it is stored under), or why the report's chunk has none. */
export type ChunkMap = { id: number; map: CompiledMap } | Unmapped;

/** What became of one frame line of the raw description (0-based `line`). */
export interface FrameNote {
  line: number;
  /** `file:line:column` it was written as, or why it was not. */
  place?: string;
  reason?: Unmapped;
}

/** Where the card's code context comes from: a map's source (its path `file`), at a 1-based line. */
export interface CodeContext {
  map: number;
  source: number;
  file: string;
  line: number;
}

export interface MappedReport {
  report: TaskReport;
  /** True when some frame, or the location, was rewritten. */
  changed: boolean;
  notes: FrameNote[];
  context: CodeContext | undefined;
}

interface Found {
  frame: FrameLine;
  index: number;
  block: number;
  place?: Place & { map: number; source: number; dependency: boolean };
}

/** The chunk paths a report's frames and location name (what `resolve` will be asked). */
export function reportPaths(report: TaskReport): Set<string> {
  const paths = new Set<string>();
  for (const line of report.description?.split('\n') ?? []) {
    const frame = parseFrame(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (frame) paths.add(frame.path);
  }
  if (report.file_name) paths.add(chunkPath(report.file_name));
  return paths;
}

/** The report with its frames mapped through `resolve`. */
export function mapReport(report: TaskReport, resolve: (path: string) => ChunkMap): MappedReport {
  const lines = report.description?.split('\n') ?? [];
  const found: Found[] = [];
  const notes: FrameNote[] = [];
  let block = 0;
  let previous = -2;
  for (const [index, text] of lines.entries()) {
    const cr = text.endsWith('\r') ? '\r' : '';
    const frame = parseFrame(cr ? text.slice(0, -1) : text);
    if (!frame) continue;
    if (index !== previous + 1) block++;
    previous = index;
    const entry: Found = { frame, index, block };
    found.push(entry);
    const chunk = resolve(frame.path);
    const place = typeof chunk === 'string' ? chunk : placeOf(chunk, frame);
    if (typeof place === 'string') {
      notes.push({ line: index, reason: place });
      continue;
    }
    entry.place = place;
    lines[index] = renderFrame(frame, place) + cr;
    notes.push({ line: index, place: `${place.file}:${place.line}:${place.column}` });
  }
  const located = locate(report, found, resolve);
  const description = found.some((f) => f.place) ? clampText(lines.join('\n')) : report.description;
  const mapped = { ...report, description, ...located.fields };
  return {
    report: mapped,
    changed: description !== report.description || located.changed,
    notes,
    context: contextOf(located.frame, found),
  };
}

function placeOf(chunk: { id: number; map: CompiledMap }, frame: FrameLine) {
  if (frame.column === 0) return 'column' as const;
  const { map } = chunk;
  const at = lookupCached(map, frame.line - 1, frame.column - 1);
  const file = at && map.sources[at.source];
  if (!at || !file) return 'position' as const;
  const name = functionName(map, frame.short, frame.line - 1, frame.column - 1);
  return {
    file,
    line: at.line + 1,
    column: at.column + 1,
    ...(name ? { name } : {}),
    map: chunk.id,
    source: at.source,
    dependency: map.dependency[at.source] === 1,
  };
}

/**
 * `file_name` and `line_number` mapped: through the frame they were taken from (the SDKs take the
 * deepest cause's throw site: blocks are tried from the last, each from its top; with a
 * `line_number`, the frame must be on that line), else, with a line but no such frame, through the
 * line alone when all of it is one source.
 */
function locate(report: TaskReport, found: Found[], resolve: (path: string) => ChunkMap) {
  const unchanged = { fields: {}, changed: false, frame: undefined as Found | undefined };
  if (!report.file_name) return unchanged;
  const path = chunkPath(report.file_name);
  const matches = found.filter(
    (f) =>
      f.frame.path === path && (report.line_number === null || f.frame.line === report.line_number),
  );
  matches.sort((a, b) => b.block - a.block || a.index - b.index);
  const frame = matches[0];
  if (frame?.place) {
    const { file, line } = frame.place;
    return {
      fields: locationFields(file, report.line_number === null ? null : line),
      changed: true,
      frame,
    };
  }
  if (frame || report.line_number === null) return { ...unchanged, frame };
  const chunk = resolve(path);
  if (typeof chunk === 'string') return unchanged;
  const at = lookupLine(chunk.map, report.line_number - 1);
  const file = at && chunk.map.sources[at.source];
  if (!at || !file) return unchanged;
  return { fields: locationFields(file, at.line + 1), changed: true, frame: undefined };
}

const locationFields = (file: string, line: number | null) => ({
  file_name: [...file].slice(-LIMITS.fileNameMax).join(''),
  line_number: line,
});

/** The located frame when it is the project's own code, else the first mapped one that is. */
function contextOf(located: Found | undefined, found: Found[]): CodeContext | undefined {
  const own = (f: Found | undefined) => f?.place && !f.place.dependency;
  const frame = own(located) ? located : found.find(own);
  const place = frame?.place;
  return place && { map: place.map, source: place.source, file: place.file, line: place.line };
}

/** A mapped description longer than the service keeps is cut at a line end. */
function clampText(text: string): string {
  if (text.length <= LIMITS.descriptionMax) return text;
  const cut = text.lastIndexOf('\n', LIMITS.descriptionMax);
  return text.slice(0, cut > 0 ? cut : LIMITS.descriptionMax);
}
