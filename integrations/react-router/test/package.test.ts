import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Published shape: publint and attw --pack (ESM only, as React Router), every entry importable, and
// no `node:` import in any of them (any adapter, the browser).
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) =>
  fileURLToPath(new URL(`../../../node_modules/.bin/${name}`, import.meta.url));
const run = (name: string, args: string[]) =>
  execFileSync(bin(name), args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });

describe('@svc/react-router package', () => {
  it('passes publint', () => {
    expect(run('publint', ['--strict'])).not.toMatch(/error|warning/i);
  });

  it('passes attw --pack (ESM only)', () => {
    expect(() => run('attw', ['--pack', '.', '--profile', 'esm-only'])).not.toThrow();
  });

  it('loads every entry; none imports from node:', async () => {
    const server = await import('@svc/react-router');
    const client = await import('@svc/react-router/client');
    const vite = await import('@svc/react-router/vite');
    expect(typeof server.initSvc).toBe('function');
    expect(typeof server.handleErrorWithSvc).toBe('function');
    expect(typeof server.svcInstrumentation).toBe('function');
    expect(typeof client.initSvcClient).toBe('function');
    expect(typeof client.onRouterError).toBe('function');
    expect(typeof vite.svc).toBe('function');
    for (const entry of ['index', 'client', 'vite'])
      expect(readFileSync(new URL(`../dist/${entry}.mjs`, import.meta.url), 'utf8')).not.toMatch(
        /from ["']node:/,
      );
  });
});
