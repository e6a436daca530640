// Original function names through a source map's `names`. A stack prints the generated (maybe
// minified) name of the function a frame is in; the map names the identifier where that function
// is defined. This index finds the definition: the nearest `function e(`, `class e`, `e=function`
// or `e=(...)=>` of that name at or before the frame's position in the generated code.

/** Definitions of functions by generated name: positions (line * STRIDE + 0-based column), sorted. */
export type Definitions = Map<string, number[]>;

/** Positions are `line * STRIDE + column`: columns up to 2^26 (64 Mi characters a line). */
const STRIDE = 2 ** 26;

const DEFINITION =
  /function\s*\*?\s*([\w$]+)\s*\(|\bclass\s+([\w$]+)|(?<![\w$.])([\w$]+)\s*=\s*(?:async\s*)?(?:function\b|(?:\([^()]*\)|[\w$]+)\s*=>)/dg;

/** Scans generated code once for function definitions (a few ms per MB). Never throws. */
export function indexDefinitions(code: string): Definitions {
  const found: Definitions = new Map();
  try {
    let line = 0;
    let lineStart = 0;
    for (const match of code.matchAll(DEFINITION)) {
      const group = match[1] ? 1 : match[2] ? 2 : 3;
      const [start] = (match.indices as [number, number][])[group];
      for (let nl = code.indexOf('\n', lineStart); nl !== -1 && nl < start;) {
        line++;
        lineStart = nl + 1;
        nl = code.indexOf('\n', lineStart);
      }
      const name = match[group];
      const positions = found.get(name) ?? [];
      if (!positions.length) found.set(name, positions);
      positions.push(line * STRIDE + Math.min(start - lineStart, STRIDE - 1));
    }
  } catch {
    // a pathological input: no names
  }
  return found;
}

/**
 * The original name of the function `name` that a frame at 1-based `line`:`column` is in, through
 * `nameAt` (the map's name of the identifier at a 1-based generated position), or `undefined`.
 */
export function originalName(
  definitions: Definitions | undefined,
  name: string | undefined,
  line: number,
  column: number,
  nameAt: (line: number, column: number) => string | undefined,
): string | undefined {
  const positions = name ? definitions?.get(name) : undefined;
  if (!positions) return undefined;
  const at = (line - 1) * STRIDE + Math.max(0, column - 1);
  let best: number | undefined;
  for (const position of positions) {
    if (position > at) break;
    best = position;
  }
  if (best === undefined) return undefined;
  const original = nameAt(Math.floor(best / STRIDE) + 1, (best % STRIDE) + 1);
  return original && original !== name ? original : undefined;
}
