// Description type detection, contract section 11, evaluated in order.

const STACK_FRAME = /\n\s+at\s/;
const FILE_LINE_COL = /[^\s:]+:\d+:\d+/;

export function detectDescriptionType(description: string | null): 'plain' | 'code' | 'json' {
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
