// The CLI as users run it (`npm run codegen [-- --check]`), against a copy of the generated folders
// so the real checkout is never touched: a hand edit or a leftover file fails --check with the hint.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_DIRS, REPO_ROOT } from '../src/generate.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', MAIN, ...args],
      { cwd: REPO_ROOT },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-codegen-'));
  for (const dir of GENERATED_DIRS)
    await cp(join(REPO_ROOT, dir), join(root, dir), { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// Each run spawns Node and loads TypeScript, ts-morph and openapi-typescript: a few seconds each on a
// loaded machine, so the runs are few and the timeout generous (no timing is asserted).
describe('codegen CLI', { timeout: 180_000 }, () => {
  it('--check fails naming every stale, missing or leftover file; a write repairs them', async () => {
    const methods = join(root, 'runtime/src/generated/methods.gen.ts');
    const schema = join(root, 'server/src/generated/schema.gen.ts');
    const leftover = join(root, 'server/src/generated/old.gen.ts');
    const phpRetry = join(root, 'php/src/Generated/Retry.gen.php');
    const phpLeftover = join(root, 'php/src/Exception/OldException.gen.php');
    const [original, originalSchema, originalRetry] = await Promise.all([
      readFile(methods, 'utf8'),
      readFile(schema, 'utf8'),
      readFile(phpRetry, 'utf8'),
    ]);
    await writeFile(methods, original.replace("'critical',", "'fatal',"));
    await rm(schema);
    await writeFile(leftover, 'export {};\n');
    // A hand edit of a generated PHP file (a retry rule flipped) and a leftover PHP file.
    await writeFile(phpRetry, originalRetry.replace('return true; // 429', 'return false; // 429'));
    await writeFile(phpLeftover, '<?php\n');

    const check = await run(['--check', '--root', root]);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(
      'runtime/src/generated/methods.gen.ts is stale: run npm run codegen',
    );
    expect(check.stderr).toContain(
      'server/src/generated/schema.gen.ts is stale: run npm run codegen',
    );
    expect(check.stderr).toContain('server/src/generated/old.gen.ts is stale: run npm run codegen');
    expect(check.stderr).toContain('php/src/Generated/Retry.gen.php is stale: run npm run codegen');
    expect(check.stderr).toContain(
      'php/src/Exception/OldException.gen.php is stale: run npm run codegen',
    );
    expect(check.stderr).toContain('5 generated file(s) are stale: run npm run codegen');

    const write = await run(['--root', root]);
    expect(write.code).toBe(0);
    expect(write.stdout).toContain('codegen: 29 files, 5 changed');
    expect(await readFile(methods, 'utf8')).toBe(original);
    expect(await readFile(schema, 'utf8')).toBe(originalSchema);
    expect(await readFile(phpRetry, 'utf8')).toBe(originalRetry);
    await expect(readFile(leftover, 'utf8')).rejects.toThrow(/ENOENT/);
    await expect(readFile(phpLeftover, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('--server writes another SERVICE_URL and Service::URL (and nothing else)', async () => {
    const result = await run(['--root', root, '--server', 'http://127.0.0.1:8787/']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('wrote runtime/src/generated/service.gen.ts');
    expect(result.stdout).toContain('wrote php/src/Generated/Service.gen.php');
    expect(result.stdout).toContain('codegen: 29 files, 2 changed');
    const service = await readFile(join(root, 'runtime/src/generated/service.gen.ts'), 'utf8');
    expect(service).toContain("SERVICE_URL = 'http://127.0.0.1:8787';");
  });

  it('an invalid spec exits 1 with the model problems', async () => {
    const spec = join(root, 'broken.yaml');
    const text = await readFile(join(REPO_ROOT, 'spec/openapi.yaml'), 'utf8');
    await writeFile(spec, text.replace('high: [minorHigh]', 'high: [minorHigh, minorHigh]'));
    const result = await run(['--check', '--root', root, '--spec', spec]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('duplicate method name "minorHigh"');
    expect(result.stderr).toContain('got 17');
  });
});
