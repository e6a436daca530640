import { readFileSync } from 'node:fs';
import { publicSettingNames, publicVariable } from '@svc/runtime/kit';
import { describe, expect, it } from 'vitest';

// The README's setup is run, as written, in the app `nuxi init` makes by the cross-framework
// matrix (pack/test/matrix/nuxt.test.ts reads its blocks); here: that it opens with the generator,
// that the matrix reads this README, and that it names the variables of the spec.
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');

describe('README', () => {
  it('opens with the generator command, then the steps on top of it; no bare nuxi', () => {
    const setup = /## Setup\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(setup.split('\n')[0]).toBe('npx nuxi@3.37.0 init my-app --no-install');
    expect(readme).not.toMatch(/^nuxi /m); // not on PATH in a fresh app
    expect(read('../../pack/test/matrix/nuxt.test.ts')).toContain('integrations/nuxt/README.md');
  });

  it('names every public variable of the browser (NUXT_PUBLIC_ + the spec`s SERVICE_ names)', () => {
    for (const name of publicSettingNames()) expect(readme).toContain(publicVariable('nuxt', name));
  });

  it('names the run-time variables the end-to-end test starts the app with', () => {
    const e2e = read('test/e2e/build.ts');
    for (const name of ['NUXT_SERVICE_KEY_ID', 'NUXT_SERVICE_SIGNING_SECRET']) {
      expect(readme).toContain(name);
      expect(e2e).toContain(`${name}:`);
    }
  });
});
