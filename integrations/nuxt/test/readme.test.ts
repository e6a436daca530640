import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The README's setup is examples/nuxt/nuxt.config.ts, which test/e2e builds and runs: same bytes.
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('README setup', () => {
  it('shows examples/nuxt/nuxt.config.ts byte for byte, with no hard-coded environment', () => {
    const block = /```ts\n\/\/ nuxt\.config\.ts\n([\s\S]*?)```/.exec(read('README.md'))![1]!;
    expect(block).toBe(read('../../examples/nuxt/nuxt.config.ts'));
    expect(block).not.toMatch(/environment:/);
  });

  it('names the run-time variables the end-to-end test starts the app with', () => {
    const readme = read('README.md');
    const e2e = read('test/e2e/build.ts');
    for (const name of [
      'NUXT_PUBLIC_SERVICE_URL',
      'NUXT_PUBLIC_SERVICE_API_KEY',
      'NUXT_SERVICE_KEY_ID',
      'NUXT_SERVICE_SIGNING_SECRET',
      'NUXT_PUBLIC_SERVICE_ENVIRONMENT',
    ]) {
      expect(readme).toContain(`${name}=`);
      expect(e2e).toContain(`${name}:`);
    }
  });
});
