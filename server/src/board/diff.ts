// What a variant's body has that the card's first report has not, line by line, so variants that
// look alike (same message, another frame or id) can be told apart without opening each one.

/** Lines of the variant missing from the first report (`added`) and the reverse (`removed`). */
export interface LineDiff {
  added: string[];
  removed: string[];
}

/** Past this many cells the middle is compared as bags of lines instead of aligned (linear). */
const ALIGN_CELLS = 250_000;

const linesOf = (text: string | null) => (text === null || text === '' ? [] : text.split('\n'));

/**
 * The differing lines of `other` against `base`: the common head and tail are skipped, the rest
 * is aligned by longest common subsequence (order kept), or, when both middles are long,
 * compared as multisets. `cut` says `other` was shortened: its last, possibly partial, line is
 * left out, and `base` lines past the last one `other` reaches are not reported as missing.
 */
export function diffLines(base: string | null, other: string | null, cut = false): LineDiff {
  const a = linesOf(base);
  const b = cut ? linesOf(other).slice(0, -1) : linesOf(other);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    !cut &&
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  return x.length * y.length > ALIGN_CELLS ? bagDiff(x, y, cut) : alignedDiff(x, y, cut);
}

/** rows[i][j]: the length of the longest common subsequence of x[i..] and y[j..]. */
function commonRows(x: readonly string[], y: readonly string[]): Uint32Array[] {
  const rows = new Array<Uint32Array>(x.length + 1);
  rows[x.length] = new Uint32Array(y.length + 1);
  for (let i = x.length - 1; i >= 0; i--) {
    const row = new Uint32Array(y.length + 1);
    const below = rows[i + 1]!;
    for (let j = y.length - 1; j >= 0; j--) {
      row[j] = x[i] === y[j] ? below[j + 1]! + 1 : Math.max(below[j]!, row[j + 1]!);
    }
    rows[i] = row;
  }
  return rows;
}

function alignedDiff(x: string[], y: string[], cut: boolean): LineDiff {
  const rows = commonRows(x, y);
  const added: string[] = [];
  const removed: string[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      i++;
      j++;
    } else if (rows[i + 1]![j]! > rows[i]![j + 1]!) {
      removed.push(x[i++]!);
    } else {
      added.push(y[j++]!);
    }
  }
  return { added: added.concat(y.slice(j)), removed: cut ? removed : removed.concat(x.slice(i)) };
}

function bagDiff(x: string[], y: string[], cut: boolean): LineDiff {
  const counts = new Map<string, number>();
  for (const line of x) counts.set(line, (counts.get(line) ?? 0) + 1);
  const added: string[] = [];
  for (const line of y) {
    const n = counts.get(line) ?? 0;
    if (n > 0) counts.set(line, n - 1);
    else added.push(line);
  }
  if (cut) return { added, removed: [] }; // unknowable: the rest of `other` is not here
  const removed = x.filter((line) => {
    const n = counts.get(line) ?? 0;
    if (n === 0) return false;
    counts.set(line, n - 1);
    return true;
  });
  return { added, removed };
}

/** A stretch of a changed line: the same in both, or what the first report had and the variant has. */
export type WordPart = { same: string } | { from: string; to: string };

/** Past this many tokens a line pair is not aligned word by word (shown as whole lines). */
const WORD_TOKENS = 400;

/** Words (letters, digits, `_`) and every other character on its own; spaces in runs. */
const tokensOf = (line: string) => line.match(/[\p{L}\p{N}_]+|\s+|./gsu) ?? [];

/**
 * What changed between two versions of a line, word by word (longest common subsequence of
 * tokens): `Order 123 not found` / `Order 456 not found` gives `Order `, `123` → `456`,
 * ` not found`. Null when the lines are too long to align or share nothing.
 */
export function diffWords(before: string, after: string): WordPart[] | null {
  const x = tokensOf(before);
  const y = tokensOf(after);
  if (x.length > WORD_TOKENS || y.length > WORD_TOKENS) return null;
  const rows = commonRows(x, y);
  if (rows[0]![0] === 0) return null;
  const parts: WordPart[] = [];
  let from = '';
  let to = '';
  const flush = () => {
    if (from !== '' || to !== '') parts.push({ from, to });
    from = '';
    to = '';
  };
  const same = (text: string) => {
    flush();
    const last = parts.at(-1);
    if (last && 'same' in last) last.same += text;
    else parts.push({ same: text });
  };
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      same(x[i]!);
      i++;
      j++;
    } else if (j >= y.length || (i < x.length && rows[i + 1]![j]! >= rows[i]![j + 1]!)) {
      from += x[i++]!;
    } else {
      to += y[j++]!;
    }
  }
  flush();
  return parts;
}
