import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readme } from './fresh/readme.ts';

// The README's setup is run as written by test/fresh (create-next-app, install, init, the
// next.config.ts lines, the variables, error.tsx); here, what ties it to the rest.
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('README setup', () => {
  it('opens with the create-next-app command of the version the fresh-app test runs', () => {
    const firstBlock = /```sh\n([^\n]*)/.exec(readme.text)![1];
    expect(firstBlock).toBe('npx create-next-app@16.4.3 my-app --yes');
    expect(read('test/fresh/suite.ts')).toContain('create-next-app@16.4.3');
  });

  it('its next.config.ts lines are those of examples/next (typed NextConfig, options off)', () => {
    const example = read('../../examples/next/next.config.ts').split('\n');
    const { importLine, exportLine } = readme.configLines();
    expect(example).toContain(importLine);
    expect(example).toContain(exportLine);
    expect(example).toContain('const nextConfig: NextConfig = {');
  });

  it('names the variables the end-to-end tests give next build and next start', () => {
    const e2e = read('test/e2e/app.ts');
    const fresh = read('test/fresh/run.ts');
    expect(readme.variables().sort()).toEqual([
      'NEXT_PUBLIC_SERVICE_API_KEY',
      'SERVICE_KEY_ID',
      'SERVICE_SIGNING_SECRET',
      'SERVICE_URL',
    ]);
    for (const name of readme.variables()) {
      expect(e2e).toContain(`${name}:`);
      expect(fresh).toContain(`${name}:`);
    }
  });
});
