import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { detectDescriptionType, FILE_LINE_COL, STACK_FRAME } from '../../src/core/detect.ts';

describe('detectDescriptionType (contract section 11)', () => {
  it.each([
    [null, 'plain'],
    ['', 'plain'],
    ['  {"a": 1}  ', 'json'],
    ['[1, 2]', 'json'],
    ['{not json} at x.js:1:2', 'code'],
    ['{not json}', 'plain'],
    ['TypeError: boom\n    at f (src/app.ts:10:5)', 'code'],
    ['failed in src/app.ts:10:5', 'code'],
    ['just words: 10:5', 'plain'],
    ['http://host:80:90', 'code'],
  ])('%j -> %s', (input, expected) => {
    expect(detectDescriptionType(input)).toBe(expected);
  });
});

describe('linear-time patterns', () => {
  const original = { stack: /\n\s+at\s/, fileLine: /[^\s:]+:\d+:\d+/ };
  it('match exactly what the contract patterns match', () => {
    const chars = fc.constantFrom('\n', ' ', '\t', 'a', 't', ':', '1', '2', 'x', '\r');
    fc.assert(
      fc.property(
        fc.array(chars, { maxLength: 30 }).map((a) => a.join('')),
        (s) => {
          expect(STACK_FRAME.test(s)).toBe(original.stack.test(s));
          expect(FILE_LINE_COL.test(s)).toBe(original.fileLine.test(s));
        },
      ),
      { numRuns: 20_000 },
    );
  });
  it('classify pathological maximum-size descriptions', () => {
    expect(detectDescriptionType('\n'.repeat(65535))).toBe('plain');
    expect(detectDescriptionType('d'.repeat(65535))).toBe('plain');
    expect(detectDescriptionType(`${'a'.repeat(65000)}:1:2`)).toBe('code');
    expect(detectDescriptionType(`x${'\n \t'.repeat(20000)}at y`)).toBe('code');
  });
});
