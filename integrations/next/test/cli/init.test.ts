import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { initApp } from '../../src/cli/init.ts';
import { INSTRUMENTATION } from '../../src/cli/templates.ts';

const dirs: string[] = [];
function tempApp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-next-init-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const EXAMPLE = fileURLToPath(new URL('../../../../examples/next/', import.meta.url));

describe('initApp', () => {
  it('examples/next holds, byte for byte, what init writes into an empty app', () => {
    const dir = tempApp();
    for (const { file } of initApp(dir))
      expect(readFileSync(join(dir, file), 'utf8'), file).toBe(
        readFileSync(join(EXAMPLE, file), 'utf8'),
      );
  });

  it('writes the three files, then is idempotent', () => {
    const dir = tempApp();
    expect(initApp(dir)).toEqual([
      { file: 'instrumentation.ts', outcome: 'created' },
      { file: 'instrumentation-client.ts', outcome: 'created' },
      { file: join('app', 'global-error.tsx'), outcome: 'created' },
    ]);
    const before = readFileSync(join(dir, 'instrumentation.ts'), 'utf8');
    expect(before).toBe(INSTRUMENTATION);
    expect(initApp(dir).map((r) => r.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(readFileSync(join(dir, 'instrumentation.ts'), 'utf8')).toBe(before);
  });

  it('uses src/ when the app lives there', () => {
    const dir = tempApp();
    mkdirSync(join(dir, 'src', 'app'), { recursive: true });
    expect(initApp(dir).map((r) => r.file)).toEqual([
      join('src', 'instrumentation.ts'),
      join('src', 'instrumentation-client.ts'),
      join('src', 'app', 'global-error.tsx'),
    ]);
  });

  it("never overwrites the user's own file", () => {
    const dir = tempApp();
    writeFileSync(join(dir, 'instrumentation.ts'), 'export function register() {}\n');
    expect(initApp(dir)[0]).toEqual({ file: 'instrumentation.ts', outcome: 'kept-user-file' });
    expect(readFileSync(join(dir, 'instrumentation.ts'), 'utf8')).toBe(
      'export function register() {}\n',
    );
  });

  it('reads the browser key as a literal process.env expression', () => {
    const dir = tempApp();
    initApp(dir);
    const client = readFileSync(join(dir, 'instrumentation-client.ts'), 'utf8');
    expect(client).toContain('apiKey: process.env.NEXT_PUBLIC_SERVICE_API_KEY,');
    expect(client).not.toContain('SIGNING_SECRET');
  });
});
