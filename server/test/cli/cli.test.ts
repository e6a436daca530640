import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnProcess } from '../../../testkit/src/process.ts';
import { CLI, runCli } from '../helpers.ts';
import { STORE_KIND, testDatabaseUrl } from '../store-kind.ts';

// The real `svc-server` binary (dist/cli.js) against a temp data dir, or a fresh PostgreSQL
// database in the server-pg project.
const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
const databaseUrl = await testDatabaseUrl();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const cli = (...args: string[]) =>
  runCli([...args, ...(databaseUrl ? ['--database-url', databaseUrl] : ['--data-dir', dataDir])]);

describe('svc-server CLI', () => {
  it('creates an account with members, a project and keys, values printed once', async () => {
    const init = (await cli('init')).stdout;
    if (STORE_KIND === 'sqlite') expect(init).toContain('svc.sqlite');
    else expect(init).toMatch(/^Initialised postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/svc_/);
    const acc = await cli(
      'account',
      'create',
      '--name',
      'Acme',
      '--plan',
      'indie',
      '--member',
      'ann@acme.test:owner',
      '--member',
      'bob@acme.test:admin',
    );
    expect(acc.stdout).toMatch(/Created account #1 "Acme" \(indie\)/);
    expect((await cli('project', 'create', '--account', '1', '--name', 'Web')).stdout).toMatch(
      /project #1/,
    );
    const pub = await cli(
      'key',
      'create',
      '--project',
      '1',
      '--type',
      'publishable',
      '--name',
      'web',
      '--origin',
      'https://acme.test',
    );
    const token = /apiKey: (svc_pub_[0-9a-f]{48})/.exec(pub.stdout)?.[1];
    expect(token).toBeDefined();
    const sec = await cli(
      'key',
      'create',
      '--project',
      '1',
      '--type',
      'secret',
      '--name',
      'api',
      '--json',
    );
    const secret = JSON.parse(sec.stdout);
    expect(secret.signingSecret).toMatch(/^svc_sec_/);
    const enc = await cli('key', 'create', '--project', '1', '--type', 'encryption', '--name', 'e');
    expect(enc.stdout).toMatch(/encryptionKeyId: +svcek_/);
    const list = await cli('key', 'list', '--project', '1');
    expect(list.stdout).toContain('https://acme.test');
    expect(list.stdout).not.toContain(token!);
    expect(list.stdout).not.toContain(secret.signingSecret);
    if (STORE_KIND === 'sqlite') {
      const wal = join(dataDir, 'svc.sqlite-wal');
      const db = Buffer.concat([
        readFileSync(join(dataDir, 'svc.sqlite')),
        existsSync(wal) ? readFileSync(wal) : Buffer.alloc(0),
      ]);
      expect(db.includes(Buffer.from(token!))).toBe(false);
      expect(db.includes(Buffer.from(secret.signingSecret))).toBe(false);
    } else {
      expect(await dumpContains(databaseUrl!, [token!, secret.signingSecret])).toEqual([]);
    }
    const accounts = await cli('account', 'list');
    expect(accounts.stdout).toContain('bob@acme.test:admin');
  });

  it('pauses, resumes, archives and revokes, and lists cards', async () => {
    expect((await cli('project', 'pause', '1')).stdout).toContain('is now paused');
    expect((await cli('project', 'resume', '1')).stdout).toContain('is now active');
    expect((await cli('project', 'archive', '1')).stdout).toContain('is now archived');
    expect((await cli('key', 'revoke', '1')).stdout).toContain('revoked');
    expect((await cli('cards', 'list', '--project', '1')).stdout).toContain('No cards yet.');
    expect(JSON.parse((await cli('cards', 'list', '--project', '1', '--json')).stdout)).toEqual([]);
  });

  it('an unreachable PostgreSQL is a one-line error without the password', async () => {
    const unreachable = 'postgres://svc:pw@127.0.0.1:1/none';
    for (const args of [
      ['account', 'list'],
      ['admin-token', 'list'],
    ]) {
      const r = await runCli([...args, '--database-url', unreachable]);
      expect([args, r.code]).toEqual([args, 1]);
      expect(r.output).toBe(
        'svc-server: cannot use postgres://svc:***@127.0.0.1:1/none: connect ECONNREFUSED 127.0.0.1:1.\n',
      );
    }
  });

  it('serve waits for an unreachable PostgreSQL (one line, no password) and stops on SIGTERM', async () => {
    const serve = spawnProcess(process.execPath, [
      CLI,
      'serve',
      '--board',
      '--port',
      '0',
      '--database-url',
      'postgres://svc:pw@127.0.0.1:1/none',
    ]);
    await serve.waitFor(/retrying until it answers/, 20_000);
    await sleep(1600); // three more attempts (0.5 s, then 1 s apart)
    serve.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(serve.output()).toMatch(
      /^svc-server: the database cannot be reached at start-up \(connect ECONNREFUSED 127\.0\.0\.1:1\); retrying until it answers \(SIGTERM or Ctrl-C stops\)\n$/,
    );
    expect(serve.output()).not.toContain('pw@');
  });

  it.runIf(STORE_KIND === 'postgres')(
    'serve still exits 1 when PostgreSQL answers but refuses (no such database; server-pg only)',
    async () => {
      const missing = new URL(databaseUrl!);
      missing.pathname = '/svc_no_such_database';
      const r = await runCli(['serve', '--port', '0', '--database-url', missing.toString()]);
      expect(r.code).toBe(1);
      expect(r.output).toMatch(/^svc-server: .*svc_no_such_database.* does not exist/);
    },
  );

  it('fails clearly with exit code 1', async () => {
    for (const args of [
      ['account', 'create', '--name', 'X', '--plan', 'gold'],
      ['key', 'revoke', '99'],
      ['project', 'pause', 'abc'],
      ['cards', 'list', '--project', '42'],
      ['frobnicate'],
      ['account', 'create', '--bogus'],
    ]) {
      const r = await cli(...args);
      expect([args, r.code]).toEqual([args, 1]);
      expect(r.output).toMatch(/^svc-server: .+\nRun "svc-server help"/);
    }
  });
});

/** Which of `needles` appear anywhere in the key table of the PostgreSQL database. */
async function dumpContains(url: string, needles: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT api_keys::text AS row FROM api_keys');
    const dump = rows.map((r: { row: string }) => r.row).join('\n');
    return needles.filter((n) => dump.includes(n));
  } finally {
    await client.end();
  }
}
