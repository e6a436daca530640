// Original function names. A stack prints the generated (maybe minified) name of the function a
// frame is in; the map names the identifier where that function is defined. At upload, the chunk's
// code (when the build sends it) is scanned once for definitions (`function e(`, `class e`,
// `e=function`, `e=(...)=>`, as the runtime's location/fn-names.ts does) and each is looked up in
// the map; the table kept is small (positions and names), the code is not kept. At ingestion, the
// nearest definition of the printed name at or before the frame's position gives the original.

/** One definition in generated code: 0-based position, generated name, original name or null. */
export type Definition = [line: number, column: number, generated: string, original: string | null];

/** Definitions scanned at most (a pathological chunk stops there). */
export const DEFINITIONS_MAX = 200_000;

const DEFINITION =
  /function\s*\*?\s*([\w$]+)\s*\(|\bclass\s+([\w$]+)|(?<![\w$.])([\w$]+)\s*=\s*(?:async\s*)?(?:function\b|(?:\([^()]*\)|[\w$]+)\s*=>)/dg;

/**
 * Scans generated code for function definitions, naming each through `nameAt` (the map's name of
 * the identifier at a 0-based generated position; called in position order). In position order.
 */
export function scanDefinitions(
  code: string,
  nameAt: (line: number, column: number) => string | undefined,
): Definition[] {
  const found: Definition[] = [];
  let line = 0;
  let lineStart = 0;
  // The next line end after `lineStart` (a minified chunk is one long line: found once, not per match).
  let nextLineEnd = code.indexOf('\n');
  for (const match of code.matchAll(DEFINITION)) {
    const group = match[1] ? 1 : match[2] ? 2 : 3;
    const [start] = (match.indices as [number, number][])[group]!;
    while (nextLineEnd !== -1 && nextLineEnd < start) {
      line++;
      lineStart = nextLineEnd + 1;
      nextLineEnd = code.indexOf('\n', lineStart);
    }
    const column = start - lineStart;
    const generated = match[group]!;
    const original = nameAt(line, column);
    found.push([line, column, generated, original && original !== generated ? original : null]);
    if (found.length >= DEFINITIONS_MAX) break;
  }
  return found;
}

/** Definitions by generated name: positions (line * 2^26 + column) ascending, and originals. */
export type DefinitionIndex = Map<string, { positions: number[]; originals: (string | null)[] }>;

const STRIDE = 2 ** 26;

export function indexDefinitions(definitions: readonly Definition[]): DefinitionIndex {
  const index: DefinitionIndex = new Map();
  for (const [line, column, generated, original] of definitions) {
    let entry = index.get(generated);
    if (!entry) {
      entry = { positions: [], originals: [] };
      index.set(generated, entry);
    }
    entry.positions.push(line * STRIDE + Math.min(column, STRIDE - 1));
    entry.originals.push(original);
  }
  return index;
}

/**
 * The original name of the function `printed` that a frame at the 0-based `line`:`column` is in:
 * the nearest definition of that name at or before the position, when the map names it.
 */
export function originalName(
  index: DefinitionIndex,
  printed: string,
  line: number,
  column: number,
): string | undefined {
  const entry = index.get(printed);
  if (!entry) return undefined;
  const at = line * STRIDE + column;
  let lo = 0;
  let hi = entry.positions.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (entry.positions[mid]! <= at) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best === -1 ? undefined : (entry.originals[best] ?? undefined);
}
