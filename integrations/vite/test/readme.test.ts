import { readFileSync } from 'node:fs';
import { publicSettingNames, publicVariable } from '@svc/runtime/kit';
import { describe, expect, it } from 'vitest';

// The README's setup is run, as written, in the app create-vite makes by the cross-framework
// matrix (pack/test/matrix/vite.test.ts reads its blocks); here: that it opens with the generator,
// that the matrix reads this README, and that it names the variables of the spec.
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');

describe('README', () => {
  it('opens with the generator command, then the steps on top of it', () => {
    const setup = /## Setup\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(setup.split('\n')[0]).toBe('npx create-vite@9.3.0 my-app --template react-ts');
    expect(read('../../pack/test/matrix/vite.test.ts')).toContain('integrations/vite/README.md');
  });

  it('names every public variable of the Vite build (VITE_ + the spec`s SERVICE_ names)', () => {
    for (const name of publicSettingNames()) expect(readme).toContain(publicVariable('vite', name));
  });
});
