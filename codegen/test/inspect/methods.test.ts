import { describe, expect, it } from 'vitest';
import { readMethodTable } from '../../src/inspect/methods.ts';
import { loadSpec } from '../helpers.ts';

describe('readMethodTable', () => {
  it('flattens the severity x priority table; bare names are the default-priority aliases', async () => {
    const table = readMethodTable(await loadSpec());
    expect(table.severities).toEqual(['critical', 'major', 'moderate', 'minor']);
    expect(table.priorities).toEqual(['low', 'medium', 'high']);
    expect(table.defaultPriority).toBe('medium');
    expect(table.methods.slice(0, 4)).toEqual([
      { name: 'criticalLow', severity: 'critical', priority: 'low', isDefaultAlias: false },
      { name: 'critical', severity: 'critical', priority: 'medium', isDefaultAlias: true },
      { name: 'criticalMedium', severity: 'critical', priority: 'medium', isDefaultAlias: false },
      { name: 'criticalHigh', severity: 'critical', priority: 'high', isDefaultAlias: false },
    ]);
  });
});
