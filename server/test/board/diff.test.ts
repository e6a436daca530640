import { describe, expect, it } from 'vitest';
import { diffWords, diffLines } from '../../src/board/diff.ts';

// The lines a variant adds to or lacks from the card's first report.
const trace = (fn: string, line: number) =>
  `TypeError: x\n    at ${fn} (src/pay.ts:${line}:1)\n    at submit (src/form.ts:88:5)`;

describe('diffLines', () => {
  it('finds the one frame that differs, in order, skipping the common head and tail', () => {
    expect(diffLines(trace('authorize', 40), trace('chargeCard', 41))).toEqual({
      added: ['    at chargeCard (src/pay.ts:41:1)'],
      removed: ['    at authorize (src/pay.ts:40:1)'],
    });
    expect(diffLines('a\nb\nc', 'a\nb\nc')).toEqual({ added: [], removed: [] });
    expect(diffLines('a\nc', 'a\nb\nc\nd')).toEqual({ added: ['b', 'd'], removed: [] });
    expect(diffLines('x\na\ny\nb', 'a\nz\nb')).toEqual({ added: ['z'], removed: ['x', 'y'] });
  });

  it('treats an absent body as no lines', () => {
    expect(diffLines(null, 'a\nb')).toEqual({ added: ['a', 'b'], removed: [] });
    expect(diffLines('a', null)).toEqual({ added: [], removed: ['a'] });
    expect(diffLines(null, null)).toEqual({ added: [], removed: [] });
  });

  it('ignores what a cut body lacks past its cut', () => {
    const base = `head\nsame\n${'tail line\n'.repeat(50)}`;
    const variant = `head\nnew\nother\n${'tail line\n'.repeat(50)}`;
    const shown = variant.slice(0, 40); // cut mid-line
    expect(diffLines(base, shown, true)).toEqual({ added: ['new', 'other'], removed: ['same'] });
    expect(diffLines(base, shown, false).removed).toHaveLength(50); // uncut: the rest is missing
  });

  it('compares long bodies as bags of lines', () => {
    const many = (tag: string) =>
      Array.from({ length: 3000 }, (_, i) => (i % 1000 === 7 ? `${tag} ${i}` : `line ${i}`));
    const d = diffLines(many('a').join('\n'), many('b').reverse().join('\n'));
    expect(d.added.sort()).toEqual(['b 1007', 'b 2007', 'b 7']);
    expect(d.removed.sort()).toEqual(['a 1007', 'a 2007', 'a 7']);
  });
});

describe('a changed line, word by word', () => {
  it('gives the words that changed, with the rest kept as it is', () => {
    expect(diffWords('Order 123 not found', 'Order 456 not found')).toEqual([
      { same: 'Order ' },
      { from: '123', to: '456' },
      { same: ' not found' },
    ]);
    expect(diffWords('at authorize (pay.ts:40:11)', 'at chargeCard (pay.ts:41:11)')).toEqual([
      { same: 'at ' },
      { from: 'authorize', to: 'chargeCard' },
      { same: ' (pay.ts:' },
      { from: '40', to: '41' },
      { same: ':11)' },
    ]);
    expect(diffWords('user 7 left', 'user 7 left early')).toEqual([
      { same: 'user 7 left' },
      { from: '', to: ' early' },
    ]);
  });

  it('gives up on lines with nothing in common or too long to align', () => {
    expect(diffWords('abc', 'xyz')).toBeNull();
    expect(diffWords('a '.repeat(500), 'a '.repeat(499))).toBeNull();
  });
});
