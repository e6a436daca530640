// Description type detection, contract section 11, evaluated in order.
import type { Card } from '../domain/types.ts';

// The contract's patterns are `\n\s+at\s` and `[^\s:]+:\d+:\d+`. Run as written they backtrack
// quadratically on long runs (a maximal description of newlines or letters takes seconds). These match exactly the
// same texts in linear time (property-tested against the originals in test/core/detect.test.ts).
export const STACK_FRAME = /\n[^\S\n]*\sat\s/;
export const FILE_LINE_COL = /[^\s:]:\d+:\d+/;

export function detectDescriptionType(description: string | null): Card['description_type'] {
  if (!description) return 'plain';
  const text = description.trim();
  const first = text[0];
  const last = text[text.length - 1];
  if ((first === '{' && last === '}') || (first === '[' && last === ']')) {
    try {
      JSON.parse(text);
      return 'json';
    } catch {
      // not JSON: fall through to the code rule
    }
  }
  if (STACK_FRAME.test(text) || FILE_LINE_COL.test(text)) return 'code';
  return 'plain';
}
