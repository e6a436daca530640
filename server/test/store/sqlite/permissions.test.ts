import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { spawnProcess } from '../../../../testkit/src/process.ts';
import { CLI, report, runCli, signHeaders, spawnService, TASKS } from '../../helpers.ts';

// Black-box: the built service, started by a shell with a permissive umask, keeps its data dir
// and database files to its own user (they hold encryption private keys and signing-secret hashes).
const SERVE = fileURLToPath(new URL('../../fixtures/serve.mjs', import.meta.url));
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

// An existing data dir and database files keep no group or other permissions after `init` or
// `serve`; where they cannot be tightened (not their owner), both refuse with a clear message.
const loosen = (dataDir: string) => {
  chmodSync(dataDir, 0o777);
  for (const file of ['svc.sqlite', 'svc.sqlite-wal', 'svc.sqlite-shm']) {
    if (existsSync(join(dataDir, file))) chmodSync(join(dataDir, file), 0o666);
  }
};

it('init tightens an existing 0777 data dir to 0700 and its 0666 database to 0600', async () => {
  const dataDir = join(root, 'existing-init');
  mkdirSync(dataDir);
  expect((await runCli(['init', '--data-dir', dataDir])).code).toBe(0);
  loosen(dataDir);
  expect(mode(dataDir)).toBe(0o777);
  const again = await runCli(['init', '--data-dir', dataDir]);
  expect(again.code, again.output).toBe(0);
  expect(mode(dataDir)).toBe(0o700);
  expect(mode(join(dataDir, 'svc.sqlite'))).toBe(0o600);
});

it('serve tightens an existing 0777 data dir and its 0666 files', async () => {
  const dataDir = join(root, 'existing-serve');
  mkdirSync(dataDir);
  const first = await spawnService({ dataDir });
  expect((await first.post(report({ title: 'Before' }), first.bearer())).status).toBe(201);
  await first.close();
  loosen(dataDir);
  const svc = await spawnService({ dataDir, noSeed: true });
  try {
    expect(mode(dataDir)).toBe(0o700);
    for (const file of ['svc.sqlite', 'svc.sqlite-wal', 'svc.sqlite-shm']) {
      if (existsSync(join(dataDir, file))) expect(mode(join(dataDir, file)), file).toBe(0o600);
    }
  } finally {
    await svc.close();
  }
});

// Only root can make a directory someone else owns: the CLI then runs as `nobody`.
const asRoot = process.getuid?.() === 0;
if (!asRoot)
  console.log('permissions.test.ts: not root, the refusal case (run as nobody) is skipped');
it.runIf(asRoot)('init and serve refuse a 0777 dir they do not own, saying why', async () => {
  const dataDir = join(root, 'not-mine');
  mkdirSync(dataDir);
  chmodSync(root, 0o755);
  chmodSync(dataDir, 0o777);
  for (const command of [['init'], ['serve', '--port', '0']]) {
    const proc = spawnProcess(process.execPath, [CLI, ...command, '--data-dir', dataDir], {
      uid: 65534,
      gid: 65534,
    });
    expect(await proc.exited, proc.output()).toBe(1);
    expect(proc.output()).toContain(
      `svc-server: The data directory ${dataDir} is mode 0777 (open to other users) and could not be restricted to 0700 (EPERM)`,
    );
    expect(existsSync(join(dataDir, 'svc.sqlite'))).toBe(false);
    expect(mode(dataDir)).toBe(0o777);
  }
});
