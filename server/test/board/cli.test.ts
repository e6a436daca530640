import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnProcess } from '../../../testkit/src/process.ts';
import { CLI, runCli } from '../helpers.ts';
import { testDatabaseUrl } from '../store-kind.ts';

// The real `svc-server` binary: admin tokens printed once and revocable, and `serve --board`
// (on SQLite, and on a fresh PostgreSQL database in the server-pg project).
const dataDir = mkdtempSync(join(tmpdir(), 'svc-board-cli-'));
const databaseUrl = await testDatabaseUrl();
const storeArgs = databaseUrl ? ['--database-url', databaseUrl] : ['--data-dir', dataDir];
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const cli = (...args: string[]) => runCli([...args, ...storeArgs]);

async function serve(...flags: string[]) {
  const p = spawnProcess(process.execPath, [CLI, 'serve', '--port', '0', ...storeArgs, ...flags]);
  const [, url] = (await p.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, 30_000)) as string[];
  // The board's line is a separate write that may arrive in a later chunk.
  if (flags.includes('--board')) await p.waitFor(/Board: \S+/, 30_000);
  const stop = async () => {
    p.kill('SIGTERM');
    await p.exited;
  };
  return { url: url!, output: p.output, waitFor: p.waitFor, stop };
}

describe('svc-server admin-token and serve --board', () => {
  it('creates a token shown once, lists it without its value, and revokes it', async () => {
    const created = await cli('admin-token', 'create', '--name', 'ops');
    expect(created.code).toBe(0);
    const token = /token: (svc_adm_[0-9a-f]{64})/.exec(created.stdout)![1]!;
    const json = JSON.parse((await cli('admin-token', 'create', '--json')).stdout);
    expect(json).toMatchObject({ id: 2, name: 'admin', token: expect.stringMatching(/^svc_adm_/) });

    const list = await cli('admin-token', 'list', '--json');
    expect(JSON.parse(list.stdout)).toMatchObject([
      { id: 1, name: 'ops', revokedAt: null },
      { id: 2, name: 'admin', revokedAt: null },
    ]);
    expect(list.stdout).not.toContain(token);

    const server = await serve('--board');
    try {
      expect(server.output()).toContain(`Board: ${server.url}/board`);
      const open = () =>
        fetch(`${server.url}/board`, { headers: { authorization: `Bearer ${token}` } });
      expect((await open()).status).toBe(200);
      expect((await cli('admin-token', 'revoke', '1')).code).toBe(0);
      expect((await open()).status).toBe(401); // revoked from another process: refused at once
    } finally {
      await server.stop();
    }
    const again = await cli('admin-token', 'revoke', '1');
    expect(again.code).toBe(1);
    expect(again.output).toContain('No live admin token with id 1.');
    expect((await cli('admin-token', 'bogus')).code).toBe(1);
  });

  it('serves no board without --board; names its sealed-box implementation', async () => {
    const server = await serve();
    try {
      expect((await fetch(`${server.url}/board`)).status).toBe(404);
      expect(server.output()).not.toContain('Board:');
      // One start-up line names the sealed-box implementation: libsodium here (a pinned dependency).
      await server.waitFor(/sealed boxes opened with .+\n/, 30_000);
      expect(server.output()).toContain(
        'svc-server: sealed boxes opened with libsodium (sodium-native)',
      );
    } finally {
      await server.stop();
    }
  });
});
