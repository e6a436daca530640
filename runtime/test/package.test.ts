// The published shape: publint and attw --pack on the built package (run `npm run build -w runtime`
// first; the root `npm test` builds before testing).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const cwd = fileURLToPath(new URL('..', import.meta.url));

it('publint --strict finds no problem', async () => {
  // --strict turns suggestions and warnings into errors (a non-zero exit rejects here).
  const { stdout } = await run('npx', ['publint', '--strict'], { cwd });
  expect(stdout).toMatch(/All good!|No problems found/);
  expect(stdout).not.toMatch(/Errors?:|Warnings?:|Suggestions?:/);
});

it('attw --pack: types resolve for node10, node16 (CJS and ESM) and bundlers', async () => {
  // attw exits non-zero on any problem, which rejects here.
  const { stdout } = await run('npx', ['attw', '--pack', '.', '--format', 'json'], {
    cwd,
    maxBuffer: 1 << 24,
  });
  const report = JSON.parse(stdout);
  expect(report.analysis.problems ?? []).toEqual([]);
});
