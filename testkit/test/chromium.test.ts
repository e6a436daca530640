import { accessSync, constants, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findChromium } from '../src/chromium.ts';

// Where the tests' Chromium comes from: $CHROMIUM_PATH, else Debian's, else the npm package's.
describe('findChromium', () => {
  it('takes $CHROMIUM_PATH first, as given', () => {
    expect(findChromium({ CHROMIUM_PATH: '/opt/chromium/chrome' })).toEqual({
      path: '/opt/chromium/chrome',
      source: '$CHROMIUM_PATH',
    });
  });

  it('else /usr/bin/chromium when installed, else an executable unpacked from @sparticuz/chromium', () => {
    const found = findChromium({});
    console.log(`Chromium of this machine: ${found.path} (from ${found.source})`);
    expect(found.source).toBe(
      existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : '@sparticuz/chromium',
    );
    expect(() => accessSync(found.path, constants.X_OK)).not.toThrow();
  });
});
