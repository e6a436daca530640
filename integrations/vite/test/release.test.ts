import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRelease, resolveRelease } from '../src/release.ts';

describe('release', () => {
  const noGit = () => undefined;
  it('prefers the option, then the environment, then git', () => {
    expect(resolveRelease('opt', { SERVICE_RELEASE: 'env' }, () => 'git')).toBe('opt');
    expect(resolveRelease(undefined, { SERVICE_RELEASE: 'env' }, () => 'git')).toBe('env');
    expect(resolveRelease(undefined, { VITE_SERVICE_RELEASE: 'venv' }, () => 'git')).toBe('venv');
    expect(resolveRelease(undefined, {}, () => 'git')).toBe('git');
    expect(resolveRelease(undefined, {}, noGit)).toBeUndefined();
  });

  it('reads the short commit of a real repository, and nothing outside one', () => {
    const here = process.cwd();
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here })
      .toString()
      .trim();
    expect(gitRelease(here)).toBe(head);
    expect(gitRelease(mkdtempSync(join(tmpdir(), 'svc-nogit-')))).toBeUndefined();
  });
});
