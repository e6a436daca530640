import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { blockVariables, readmeBlock } from '@svc/testkit';
import { describe, expect, it } from 'vitest';

// The README's setup is run as written on the app create-next-app makes by the cross-framework
// matrix's Next suite (pack/test/matrix/next.test.ts: create-next-app, install, init, the
// next.config.ts lines, the variables, error.tsx); here, what ties it to the rest.
const README = fileURLToPath(new URL('../README.md', import.meta.url));
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('README setup', () => {
  it('opens with the create-next-app command of the version the fresh-app suite runs', () => {
    const firstBlock = /```sh\n([^\n]*)/.exec(read('README.md'))![1];
    expect(firstBlock).toBe('npx create-next-app@16.4.3 my-app --yes');
    expect(read('../../pack/test/matrix/next.test.ts')).toContain('create-next-app@16.4.3');
  });

  it('its next.config.ts lines are those of examples/next (typed NextConfig, options off)', () => {
    const example = read('../../examples/next/next.config.ts').split('\n');
    const lines = readmeBlock(README, 'ts', 'withSvc(nextConfig').split('\n');
    const importLine = lines.find((l) => l.startsWith('import '));
    const exportLine = lines.find((l) => l.startsWith('export default withSvc('));
    expect(importLine).toBeDefined();
    expect(example).toContain(importLine);
    expect(example).toContain(exportLine);
    expect(example).toContain('const nextConfig: NextConfig = {');
  });

  it('names the variables the end-to-end tests give next build and next start', () => {
    const run = readmeBlock(README, 'sh', 'SERVICE_SIGNING_SECRET=');
    const variables = blockVariables(run);
    expect(variables).toEqual([
      'NEXT_PUBLIC_SERVICE_API_KEY',
      'SERVICE_KEY_ID',
      'SERVICE_SIGNING_SECRET',
      'SERVICE_URL',
    ]);
    const e2e = read('test/e2e/app.ts');
    for (const name of variables) expect(e2e).toContain(`${name}:`);
    // The fresh-app suite checks the same list against the variables it gives the app.
    expect(read('../../pack/test/matrix/next-app.ts')).toContain("'NEXT_PUBLIC_SERVICE_API_KEY',");
  });
});
