import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../src/server/register.ts';

describe('withDefaults', () => {
  it('lets defined options win and undefined ones keep the default', () => {
    expect(
      withDefaults(
        { release: undefined, environment: 'prod', debug: true },
        { keyId: 'svck_1', release: 'r1', environment: 'dev' },
      ),
    ).toEqual({ keyId: 'svck_1', release: 'r1', environment: 'prod', debug: true });
  });
});
