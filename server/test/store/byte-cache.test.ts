import { describe, expect, it } from 'vitest';
import { createByteCache, stringBytes } from '../../src/store/byte-cache.ts';

describe('byte cache', () => {
  const sized = (maxBytes: number, evicted: string[] = []) =>
    createByteCache<string, string>({
      maxBytes,
      sizeOf: (k, v) => stringBytes(k) + stringBytes(v),
      onEvict: (k) => evicted.push(k),
    });

  it('stays under its byte budget whatever the entry count', () => {
    const cache = sized(10_000);
    for (let i = 0; i < 1000; i++) cache.set(`k${i}`, 'x'.repeat(i % 50 === 0 ? 4000 : 10));
    expect(cache.bytes).toBeLessThanOrEqual(10_000);
    cache.set('huge', 'x'.repeat(100_000)); // larger than the budget: it cannot stay
    expect(cache.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.has('huge')).toBe(false);
  });

  it('drops the least recently used first, and re-measures a replaced value', () => {
    const evicted: string[] = [];
    const cache = sized(3 * (stringBytes('a') + stringBytes('xxxx')), evicted);
    cache.set('a', 'xxxx');
    cache.set('b', 'xxxx');
    cache.set('c', 'xxxx');
    cache.get('a');
    cache.set('d', 'xxxx');
    expect(evicted).toEqual(['b']);
    cache.set('a', 'x'.repeat(8)); // grew: the oldest others make room
    expect(evicted).toEqual(['b', 'c']);
    expect([cache.has('a'), cache.has('d')]).toEqual([true, true]);
    cache.delete('a');
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });
});
