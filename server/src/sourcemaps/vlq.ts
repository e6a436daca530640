// Base64 VLQ, the number encoding of a source map's `mappings` (ECMA-426 section 8): decoding with
// bounds (a value past 32 bits, a bad character or a cut-off value is an error, never a loop), and
// encoding for the maps the service rewrites (an index map flattened, unsorted segments sorted).

const CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Char code -> 6-bit value, or -1. */
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < CHARS.length; i++) VALUES[CHARS.charCodeAt(i)] = i;

/** 2 ** (5 * i): the weight of a value's i-th digit. */
const WEIGHT = [1, 2 ** 5, 2 ** 10, 2 ** 15, 2 ** 20, 2 ** 25, 2 ** 30];

export const COMMA = 44;
export const SEMICOLON = 59;

/** A `mappings` string that does not decode; `at` is the offending character's index. */
export class MappingsError extends Error {
  override name = 'MappingsError';
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(`${message} at character ${at}`);
  }
}

/**
 * Reads one VLQ value of `text` starting at `state.at`, advancing it. Throws `MappingsError` on a
 * character outside base64, a value cut off by the end, a separator or more than 32 bits.
 */
export function readVlq(text: string, state: { at: number }): number {
  let result = 0;
  let digits = 0;
  let at = state.at;
  for (;;) {
    if (at >= text.length) throw new MappingsError('a value is cut off', at);
    const code = text.charCodeAt(at);
    const digit = code < 128 ? VALUES[code]! : -1;
    if (digit === -1) throw new MappingsError('not a base64 VLQ character', at);
    at++;
    result += (digit & 31) * WEIGHT[digits]!;
    if ((digit & 32) === 0) break;
    if (++digits === WEIGHT.length)
      throw new MappingsError('a value has more than 32 bits', at - 1);
  }
  state.at = at;
  const magnitude = Math.floor(result / 2);
  if (magnitude > 0x7fffffff) throw new MappingsError('a value has more than 32 bits', at - 1);
  return result % 2 === 1 ? -magnitude : magnitude;
}

/** Appends the VLQ form of `value` to `out`. */
export function writeVlq(out: string[], value: number): void {
  let rest = value < 0 ? -value * 2 + 1 : value * 2;
  do {
    let digit = rest % 32;
    rest = Math.floor(rest / 32);
    if (rest > 0) digit += 32;
    out.push(CHARS[digit]!);
  } while (rest > 0);
}
