import { describe, expect, it } from 'vitest';
import {
  atOrAfter,
  compareSemver,
  environmentOf,
  newestRelease,
  parseSemver,
} from '../../src/accept/index.ts';

// Environments and releases of a report, and the order release-aware resolution compares.
describe('environments and releases', () => {
  it('the environment is the first non-empty env tag, production without one', () => {
    expect(environmentOf(['a', 'env:staging', 'env:production'])).toBe('staging');
    expect(environmentOf(['env:', 'environment:x'])).toBe('production');
    expect(environmentOf([])).toBe('production');
  });

  it('parses semver 2.0.0 with an optional v, and orders by precedence', () => {
    const order = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      'v1.0.1+build.5',
      '1.10.0',
      '2.0.0',
    ];
    const parsed = order.map((n) => parseSemver(n)!);
    for (let i = 1; i < parsed.length; i++) {
      expect(compareSemver(parsed[i - 1]!, parsed[i]!), order[i]).toBeLessThan(0);
      expect(compareSemver(parsed[i]!, parsed[i - 1]!), order[i]).toBeGreaterThan(0);
    }
    expect(compareSemver(parseSemver('1.2.3+a')!, parseSemver('v1.2.3')!)).toBe(0);
    for (const name of ['1.2', '01.2.3', '1.2.3-', 'build-77', '2024.10.01.4', '']) {
      expect(parseSemver(name), name).toBeNull();
    }
  });

  it('says how a release was found to be the resolved one or newer', () => {
    const places: Record<string, number> = { a1: 1, b2: 2, '2.0.0': 3 };
    const seen = (n: string) => places[n] ?? null;
    expect(atOrAfter('b2', 'b2', seen)).toBe('same');
    expect(atOrAfter('b2', 'a1', seen)).toBe('first_sight');
    expect(atOrAfter('a1', 'b2', seen)).toBeNull();
    expect(atOrAfter('new', 'b2', seen)).toBe('first_sight');
    // Resolved in a release never seen yet: everything else seen so far is older.
    expect(atOrAfter('b2', 'c3', seen)).toBeNull();
    expect(atOrAfter('1.9.0', '2.0.0', seen)).toBeNull();
    expect(atOrAfter('2.0.1', '2.0.0', seen)).toBe('semver');
    // One side not semver: by first sight.
    expect(atOrAfter('b2', '2.0.0', seen)).toBeNull();
    expect(atOrAfter(null, 'a1', seen)).toBeNull();
  });

  it('the newest release: the highest semver when all parse, else the last seen', () => {
    expect(newestRelease(['1.2.0', '1.10.0', '1.9.9'])).toBe('1.10.0');
    expect(newestRelease(['1.2.0', 'build-7', '1.0.0'])).toBe('1.0.0');
    expect(newestRelease([])).toBeNull();
  });
});
