// Length limits count Unicode code points and never split a surrogate pair.

/** The first `max` code points of `s` (a lone surrogate counts as one). */
export function clamp(s: string, max: number): string {
  if (s.length <= max) return s;
  let i = 0;
  for (let n = 0; n < max && i < s.length; n++) {
    const c = s.charCodeAt(i);
    const d = s.charCodeAt(i + 1);
    i += c >= 0xd800 && c < 0xdc00 && d >= 0xdc00 && d < 0xe000 ? 2 : 1;
  }
  return s.slice(0, i);
}

/**
 * The last `max` characters of a file name: the file itself is the informative part of an
 * over-long path (the service rejects a longer `file_name` with a 422).
 */
export function clampTail(name: string, max: number): string {
  return name.length <= max ? name : name.slice(name.length - max);
}
