import { describe, expect, it } from 'vitest';
import { deriveTitle, normaliseTags, validateReport } from '../../src/core/validate.ts';

describe('validateReport', () => {
  it('normalises a minimal raw report', () => {
    const r = validateReport({
      severity: 'minor',
      description: '\n\n  first line \nsecond',
      status: 'done',
    });
    expect(r).toEqual({
      ok: true,
      report: {
        severity: 'minor',
        priority: 'medium',
        title: 'first line',
        description: '\n\n  first line \nsecond',
        tags: [],
        file_name: null,
        line_number: null,
      },
    });
  });
  it('maps schema failures to field errors', () => {
    const r = validateReport({
      severity: 'fatal',
      title: 'x'.repeat(256),
      tags: ['y'.repeat(51)],
      line_number: 0,
      file_name: 7,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual([
      'file_name',
      'line_number',
      'severity',
      'tags',
      'title',
    ]);
  });
  it('checks CSV tags after splitting', () => {
    const r = validateReport({ severity: 'major', tags: `ok, ${'z'.repeat(51)}` });
    expect(r.ok ? null : r.errors.tags).toHaveLength(1);
  });
  it('refuses non-objects', () => {
    expect(validateReport([1]).ok).toBe(false);
    expect(validateReport('x').ok).toBe(false);
    expect(validateReport(null).ok).toBe(false);
  });
});

describe('helpers', () => {
  it('normaliseTags trims, de-duplicates and drops empties', () => {
    expect(normaliseTags(' a, b ,a,, c ')).toEqual(['a', 'b', 'c']);
    expect(normaliseTags(['x', 'x', ' y '])).toEqual(['x', 'y']);
  });
  it('deriveTitle falls back to Untitled error', () => {
    expect(deriveTitle(null)).toBe('Untitled error');
    expect(deriveTitle('  \n \n')).toBe('Untitled error');
    expect(deriveTitle('x'.repeat(300))).toHaveLength(255);
  });
});
