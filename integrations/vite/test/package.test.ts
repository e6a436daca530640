import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Published shape: publint and attw --pack (ESM only) on the built package, and the browser entries
// import no `node:` module.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) =>
  fileURLToPath(new URL(`../../../node_modules/.bin/${name}`, import.meta.url));
const run = (name: string, args: string[]) =>
  execFileSync(bin(name), args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });

describe('@svc/vite package', () => {
  it('passes publint --strict', () => {
    expect(run('publint', ['--strict'])).not.toMatch(/error|warning/i);
  });

  it('passes attw --pack with the esm-only profile', () => {
    expect(() => run('attw', ['--pack', '.', '--profile', 'esm-only'])).not.toThrow();
  });

  it('browser entries import no node: module; the plugin loads', async () => {
    for (const entry of ['client', 'react', 'vue']) {
      const code = readFileSync(new URL(`../dist/${entry}.mjs`, import.meta.url), 'utf8');
      expect(code).not.toMatch(/from\s*["']node:/);
    }
    const mod = await import('@svc/vite');
    expect(mod.svc().name).toBe('svc');
    expect(typeof (await import('@svc/vite/client')).installGlobalHandlers).toBe('function');
  });
});
