import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { spawnProcess } from '../../../testkit/src/process.ts';
import { report, signHeaders, TASKS } from '../helpers.ts';

// Black-box: the built service, started by a shell with a permissive umask, keeps its data dir
// and database files to its own user (they hold encryption private keys and signing-secret hashes).
const SERVE = fileURLToPath(new URL('../fixtures/serve.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'svc-perm-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

for (const umask of ['022', '000']) {
  it(`umask ${umask}: data dir 0700, svc.sqlite and its -wal and -shm 0600`, async () => {
    const dataDir = join(root, `umask-${umask}`, 'data');
    const proc = spawnProcess('/bin/sh', [
      '-c',
      `umask ${umask} && exec "$0" "$@"`,
      process.execPath,
      SERVE,
      JSON.stringify({ dataDir }),
    ]);
    try {
      const info = JSON.parse((await proc.waitFor(/READY (.+)\n/, 30_000))[1]!);
      const body = report({ title: `Permissions ${umask}` });
      const r = await fetch(info.url + TASKS, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signHeaders(
            body,
            info.keys.signingSecret,
            info.keys.keyId,
            Math.floor(Date.now() / 1000),
          ),
        },
        body,
      });
      expect(r.status).toBe(201);
      expect(mode(dataDir)).toBe(0o700);
      for (const file of ['svc.sqlite', 'svc.sqlite-wal', 'svc.sqlite-shm']) {
        expect(mode(join(dataDir, file)), file).toBe(0o600);
      }
    } finally {
      proc.kill('SIGTERM');
      await proc.exited;
    }
  });
}
