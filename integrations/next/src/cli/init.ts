// `svc-next init [dir]`: writes the three integration files into a Next app. Idempotent.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { GLOBAL_ERROR, INSTRUMENTATION, INSTRUMENTATION_CLIENT, MARKER } from './templates.ts';

export type InitOutcome = 'created' | 'unchanged' | 'kept-user-file';

export interface InitResult {
  file: string;
  outcome: InitOutcome;
}

/** Uses `src/` when the app keeps `app/` there (Next's `src` folder convention). */
function sourceRoot(appDir: string): string {
  return existsSync(join(appDir, 'src', 'app')) ? join(appDir, 'src') : appDir;
}

function writeOnce(path: string, content: string): InitOutcome {
  if (existsSync(path)) {
    const current = readFileSync(path, 'utf8');
    return current.includes(MARKER) ? 'unchanged' : 'kept-user-file';
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return 'created';
}

/** Writes instrumentation.ts, instrumentation-client.ts and app/global-error.tsx. */
export function initApp(appDir: string): InitResult[] {
  const root = sourceRoot(appDir);
  const files: [string, string][] = [
    [join(root, 'instrumentation.ts'), INSTRUMENTATION],
    [join(root, 'instrumentation-client.ts'), INSTRUMENTATION_CLIENT],
    [join(root, 'app', 'global-error.tsx'), GLOBAL_ERROR],
  ];
  return files.map(([path, content]) => ({
    file: relative(appDir, path),
    outcome: writeOnce(path, content),
  }));
}
