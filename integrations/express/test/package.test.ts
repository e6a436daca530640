import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Published shape: publint and attw --pack on the built package, plus a require() and import() smoke.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) =>
  fileURLToPath(new URL(`../../../node_modules/.bin/${name}`, import.meta.url));
const run = (name: string, args: string[]) =>
  execFileSync(bin(name), args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });

describe('@svc/express package', () => {
  it('passes publint', () => {
    expect(run('publint', ['--strict'])).not.toMatch(/error|warning/i);
  });

  it('passes attw --pack (node10, node16 CJS/ESM, bundler)', () => {
    expect(() => run('attw', ['--pack', '.'])).not.toThrow();
  });

  it('loads through require() and import()', async () => {
    const required = createRequire(import.meta.url)('@svc/express');
    const imported = await import('@svc/express');
    for (const mod of [required, imported]) {
      expect(typeof mod.setupErrorHandler).toBe('function');
      expect(typeof mod.errorHandler).toBe('function');
    }
  });
});
