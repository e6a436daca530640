import { describe, expect, it } from 'vitest';
import { toSdkOptions } from '../../../src/runtime/shared/options';

describe('toSdkOptions', () => {
  it('drops the empty defaults so unset values add nothing', () => {
    expect(
      toSdkOptions({ environment: '', release: '1.0', apiKey: '', sampleRate: 0, debug: false }),
    ).toEqual({ release: '1.0', sampleRate: 0, debug: false });
  });
  it('splits defaultTags given as a CSV environment variable; keeps arrays', () => {
    expect(toSdkOptions({ defaultTags: ' a, b ,,c' })).toEqual({ defaultTags: ['a', 'b', 'c'] });
    expect(toSdkOptions({ defaultTags: ['x'] })).toEqual({ defaultTags: ['x'] });
  });
  it('tolerates a missing config', () => {
    expect(toSdkOptions(undefined)).toEqual({});
  });
});
