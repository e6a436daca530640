import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnProcess } from '../../../testkit/src/process.ts';
import { STORE_KIND, testDatabaseUrl } from '../store-kind.ts';

// Black-box: the built service in a child process where nothing else holds the event loop. After
// reports were ingested, `await server.close()` must settle by itself (an unsettled top-level await
// ends the process with exit code 13 before the store is closed), under whatever flags the host
// Node runs with; the WAL checkpointer thread is a file in dist/, not `eval`ed source.
const FIXTURE = fileURLToPath(new URL('../fixtures/close.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'svc-close-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let runs = 0;
async function run(flags: string[], config: Record<string, unknown> = {}) {
  const dataDir = join(root, String(++runs));
  const databaseUrl = await testDatabaseUrl();
  const env = {
    ...process.env,
    SVC_CLOSE_CONFIG: JSON.stringify({ dist: DIST, dataDir, databaseUrl, ...config }),
  };
  // `-e` runs the same fixture as a string (with `--input-type=module` it is an ES module).
  const args = flags.includes('-e') ? flags : [...flags, FIXTURE];
  const proc = spawnProcess(process.execPath, args, { env });
  const code = await proc.exited;
  return { code, output: proc.output() };
}

const SOURCE = readFileSync(FIXTURE, 'utf8');
// The permission model's flag: `--permission` since Node 22.13 (Node 24 refuses the old name).
const PERMISSION = process.allowedNodeEnvironmentFlags.has('--permission')
  ? '--permission'
  : '--experimental-permission';

describe(`close() settles on its own (${STORE_KIND})`, () => {
  it('after one ingested report: exit 0, not 13', async () => {
    const { code, output } = await run([]);
    expect(output).toContain('INGESTED 201');
    expect(output).toContain('CLOSED');
    expect(code, output).toBe(0);
  });

  it('with the board on', async () => {
    const { code, output } = await run([], { board: true });
    expect(output).toContain('CLOSED');
    expect(code, output).toBe(0);
  });

  it('before any report (no checkpointer started)', async () => {
    const { code, output } = await run([], { reports: 0 });
    expect(output).toContain('CLOSED');
    expect(code, output).toBe(0);
  });
});

if (STORE_KIND !== 'sqlite') {
  console.log(
    'lifecycle.test.ts: the WAL checkpointer cases are SQLite only; skipped on PostgreSQL',
  );
}
describe.runIf(STORE_KIND === 'sqlite')('the WAL checkpointer under host flags', () => {
  const cases: [string, string[]][] = [
    ['no flags', []],
    ['--input-type=module -e', ['--input-type=module', '-e', SOURCE]],
    ['--experimental-vm-modules', ['--experimental-vm-modules']],
    ['--import (a host hook)', ['--import', 'data:text/javascript,globalThis.hooked=1']],
    [
      'permission model with --allow-worker',
      [PERMISSION, '--allow-fs-read=*', '--allow-fs-write=*', '--allow-addons', '--allow-worker'],
    ],
  ];
  for (const [name, flags] of cases) {
    it(`${name}: the thread checkpoints while open, close() settles`, async () => {
      const { code, output } = await run(flags, { reports: 300, waitForCheckpoint: true });
      expect(output).toContain('INGESTED 201');
      expect(output).not.toContain('checkpointer stopped');
      expect(output).toContain('GREW true');
      expect(output).toContain('CLOSED');
      expect(code, output).toBe(0);
    });
  }

  it('permission model without --allow-worker: checkpoints stay in the main thread, said once', async () => {
    const flags = [PERMISSION, '--allow-fs-read=*', '--allow-fs-write=*', '--allow-addons'];
    const { code, output } = await run(flags, { reports: 300 });
    expect(output).toContain('INGESTED 201');
    expect(output.match(/WAL checkpoints stay in the main thread/g)).toHaveLength(1);
    expect(output).toContain('CLOSED');
    expect(code, output).toBe(0);
  });
});
