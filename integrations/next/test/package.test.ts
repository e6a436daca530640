import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Published shape: publint and attw --pack on the built package (run `npm run build` first), plus
// a require() and import() smoke of each subpath. attw uses the node16 profile: the subpath
// exports (`/client`, `/config`) cannot exist under node10 resolution, which Next 16 never uses.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) =>
  fileURLToPath(new URL(`../../../node_modules/.bin/${name}`, import.meta.url));
const run = (name: string, args: string[]) =>
  execFileSync(bin(name), args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });

describe('@svc/next package', () => {
  it('passes publint --strict', () => {
    expect(run('publint', ['--strict'])).not.toMatch(/error|warning/i);
  });

  it('passes attw --pack (node16 CJS/ESM, bundler)', () => {
    expect(() => run('attw', ['--pack', '.', '--profile', 'node16'])).not.toThrow();
  });

  it('loads every subpath through require() and import()', async () => {
    const require = createRequire(import.meta.url);
    const expected: [string, string[]][] = [
      ['@svc/next', ['captureRequestError', 'registerSvc', 'createOnRequestError']],
      ['@svc/next/client', ['registerSvcClient', 'SvcErrorBoundary', 'useSvcErrorReport']],
      ['@svc/next/config', ['withSvc']],
    ];
    for (const [id, names] of expected) {
      for (const mod of [require(id), await import(id)]) {
        for (const name of names) expect(typeof mod[name], `${id} ${name}`).toBe('function');
      }
    }
  });

  it('the config entry loads without the runtime client or React (it runs inside next.config)', () => {
    const source = readFileSync(`${ROOT}/dist/config.js`, 'utf8');
    // Only the runtime's small kit (the secret guard) and its build-time source-map upload.
    expect(source).toContain('@svc/runtime/kit');
    expect(source).not.toMatch(/@svc\/runtime(?!\/(?:kit|sourcemaps))|from "react"|next\/server/);
  });
});
