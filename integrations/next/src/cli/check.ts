// `svc-next check [distDir]`: scans a build's browser output for server-only credentials, with
// the runtime kit's one secret guard.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findSecretsInCode, type KnownSecret } from '@svc/runtime/kit';

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
 * Lists files under `<distDir>/static` that contain a secret-shaped value (a signing secret) or
 * one of the `known` secret values (from `knownSecrets(process.env)`).
 */
export function scanStatic(distDir: string, known: readonly KnownSecret[]): StaticLeak[] {
  const leaks: StaticLeak[] = [];
  for (const file of walk(join(distDir, 'static'))) {
    const text = readFileSync(file, 'latin1');
    for (const what of findSecretsInCode(text, known))
      leaks.push({ file: relative(distDir, file), what });
  }
  return leaks;
}
