import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Published shape: publint and attw --pack on the built package, require() and import(), and a
// build that workerd can load as it is: no `node:` import anywhere in it.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) =>
  fileURLToPath(new URL(`../../../node_modules/.bin/${name}`, import.meta.url));
const run = (name: string, args: string[]) =>
  execFileSync(bin(name), args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });

describe('@svc/hono package', () => {
  it('passes publint', () => {
    expect(run('publint', ['--strict'])).not.toMatch(/error|warning/i);
  });

  it('passes attw --pack (node10, node16 CJS/ESM, bundler)', () => {
    expect(() => run('attw', ['--pack', '.'])).not.toThrow();
  });

  it('loads through require() and import()', async () => {
    const required = createRequire(import.meta.url)('@svc/hono');
    const imported = await import('@svc/hono');
    for (const mod of [required, imported]) {
      expect(typeof mod.svc).toBe('function');
      expect(typeof mod.onError).toBe('function');
      expect(typeof mod.instrumentDurableObject).toBe('function');
    }
  });

  it('imports nothing from node: (workerd loads it without nodejs_compat)', () => {
    for (const file of ['dist/index.mjs', 'dist/index.cjs'])
      expect(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')).not.toMatch(/node:/);
  });
});
