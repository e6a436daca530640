// `svc-next check [distDir]`: scans a build's browser output for server-only credentials.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface StaticLeak {
  file: string;
  /** What matched (never the secret itself). */
  what: string;
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/**
 * Lists files under `<distDir>/static` that contain any of `secrets` or a `svc_sec_` value.
 * `secrets` shorter than 8 characters are ignored (they would match by accident).
 */
export function scanStatic(distDir: string, secrets: string[]): StaticLeak[] {
  const root = join(distDir, 'static');
  const needles = secrets.filter((s) => s.length >= 8);
  const leaks: StaticLeak[] = [];
  for (const file of walk(root)) {
    const text = readFileSync(file, 'latin1');
    if (/svc_sec_[A-Za-z0-9]/.test(text))
      leaks.push({ file: relative(distDir, file), what: 'svc_sec_ value' });
    needles.forEach((needle, i) => {
      if (text.includes(needle))
        leaks.push({ file: relative(distDir, file), what: `secret #${i + 1}` });
    });
  }
  return leaks;
}
