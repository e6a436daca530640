import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers.ts';

// The real `svc-server` binary (dist/cli.js) against a temp data dir.
const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);

describe('svc-server CLI', () => {
  it('creates an account with members, a project and keys, values printed once', async () => {
    expect((await cli('init')).stdout).toContain('svc.sqlite');
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
    const wal = join(dataDir, 'svc.sqlite-wal');
    const db = Buffer.concat([
      readFileSync(join(dataDir, 'svc.sqlite')),
      existsSync(wal) ? readFileSync(wal) : Buffer.alloc(0),
    ]);
    expect(db.includes(Buffer.from(token!))).toBe(false);
    expect(db.includes(Buffer.from(secret.signingSecret))).toBe(false);
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

describe('svc-server demo (the main job behind npm start)', () => {
  it('serves, creates the demo project once, sends signed+encrypted reports through @svc/runtime and keeps serving', async () => {
    const { spawnProcess } = await import('../../../testkit/src/process.ts');
    const demoDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
    let previousToken: string | undefined;
    try {
      for (const run of [1, 2]) {
        const p = spawnProcess(process.execPath, [
          CLI,
          'demo',
          '--port',
          '0',
          '--data-dir',
          demoDir,
        ]);
        try {
          await p.waitFor(/Still serving on (http:\/\/127\.0\.0\.1:\d+)/, 60_000);
          const out = p.output();
          expect(out).toMatch(run === 1 ? /Keys \(shown once\)/ : /already exist/);
          expect(out).toMatch(/"failed":0/);
          expect(out).toMatch(
            new RegExp(`#1 +critical +medium +${run * 3} +code +Payment token missing`),
          );
          expect(out).toContain('@ src/cli/demo.ts:');
          expect(out).toMatch(/Checkout total mismatch/);
          const url = /Still serving on (\S+) /.exec(out)![1]!;
          const health = await fetch(`${url}/health`);
          expect(health.status).toBe(200);
          // The board is on, and this run's printed admin token opens it (the previous one no more).
          const [, board, token] = /Board: (\S+) .*\n {2}(svc_adm_[0-9a-f]{64})/.exec(out)!;
          expect(board).toBe(`${url}/board`);
          const page = await fetch(board!, { headers: { authorization: `Bearer ${token}` } });
          expect(await page.text()).toContain('Demo project');
          if (previousToken) {
            const old = await fetch(board!, {
              headers: { authorization: `Bearer ${previousToken}` },
            });
            expect(old.status).toBe(401);
          }
          previousToken = token;
        } finally {
          p.kill('SIGTERM');
          await p.exited;
        }
      }
      const cards = JSON.parse(
        (await runCli(['cards', 'list', '--project', '1', '--json', '--data-dir', demoDir])).stdout,
      );
      expect(
        cards.find((c: { title: string }) => c.title === 'Payment token missing').occurrence_count,
      ).toBe(6);
    } finally {
      rmSync(demoDir, { recursive: true, force: true });
    }
  });
});
