import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The README's setup is what examples/next holds (test/e2e builds and runs it): the files of
// `svc-next init` are compared byte for byte in test/cli/init.test.ts; here, every code line of the
// README's next.config.ts is a line of the example's.
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('README setup', () => {
  it('next.config.ts: every code line shown is in examples/next/next.config.ts', () => {
    const block = /```ts\n(\/\/ next\.config\.ts\n[\s\S]*?)```/.exec(read('README.md'))![1]!;
    const example = read('../../examples/next/next.config.ts').split('\n');
    const code = block.split('\n').filter((l) => l.trim() && !l.trim().startsWith('//'));
    expect(code.length).toBeGreaterThanOrEqual(3);
    for (const line of code) expect(example).toContain(line);
  });

  it('names the variables the end-to-end test gives next build and next start', () => {
    const readme = read('README.md');
    const e2e = read('test/e2e/app.ts');
    for (const name of [
      'SERVICE_URL',
      'SERVICE_KEY_ID',
      'SERVICE_SIGNING_SECRET',
      'NEXT_PUBLIC_SERVICE_API_KEY',
    ]) {
      expect(readme).toContain(`${name}=`);
      expect(e2e).toContain(`${name}:`);
    }
  });
});
