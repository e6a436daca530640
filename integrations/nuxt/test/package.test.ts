import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The published shape (ESM only): publint and `attw --pack` on the built package, plus a smoke
// import of the built module entry. Needs `npm run build -w @svc/nuxt` first.
const PKG = fileURLToPath(new URL('..', import.meta.url));
const BIN = fileURLToPath(new URL('../../../node_modules/.bin/', import.meta.url));
const run = promisify(execFile);

describe('published package', () => {
  it('is built', () => {
    expect(existsSync(`${PKG}dist/module.mjs`)).toBe(true);
  });
  it('passes publint', async () => {
    const { stdout } = await run(`${BIN}publint`, ['--strict'], { cwd: PKG });
    expect(stdout).toContain('All good');
  });
  it('passes attw --pack with the esm-only profile', async () => {
    // Exits non-zero on any problem not ignored by the profile.
    const { stdout } = await run(
      `${BIN}attw`,
      ['--pack', '--profile', 'esm-only', '--format', 'json'],
      {
        cwd: PKG,
      },
    );
    const result = JSON.parse(stdout.slice(stdout.indexOf('{')));
    expect(result.analysis.packageName).toBe('@svc/nuxt');
  });
  it('imports as a Nuxt module with configKey svc', async () => {
    const mod = await import(`${PKG}dist/module.mjs`);
    const meta = await mod.default.getMeta();
    expect(meta).toMatchObject({ name: '@svc/nuxt', configKey: 'svc' });
  });
});
