import { execFileSync } from 'node:child_process';

/** `git rev-parse --short HEAD` in `cwd`, or undefined outside a repository / without git. */
export function gitRelease(cwd: string): string | undefined {
  try {
    const out = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
    return out || undefined;
  } catch {
    return undefined;
  }
}

/** Release: the option, then `SERVICE_RELEASE` / `VITE_SERVICE_RELEASE`, then git. */
export function resolveRelease(
  option: string | undefined,
  env: Record<string, string | undefined>,
  git: () => string | undefined,
): string | undefined {
  return option || env.SERVICE_RELEASE || env.VITE_SERVICE_RELEASE || git();
}
