// Length limits count Unicode code points and never split a surrogate pair.

/** The first `max` code points of `s` (a lone surrogate counts as one). */
export function clamp(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = 0;
  let count = 0;
  // A string iterates by code point: a pair is one step of length 2, a lone surrogate one of 1.
  for (const point of s) {
    if (count++ === max) break;
    end += point.length;
  }
  return s.slice(0, end);
}

/**
 * The last `max` characters of a file name: the file itself is the informative part of an
 * over-long path (the service rejects a longer `file_name` with a 422).
 */
export function clampTail(name: string, max: number): string {
  return name.length <= max ? name : name.slice(name.length - max);
}
