// `npm start`'s main job, run as a real process twice against one data dir: the demo project is
// created once, real signed and encrypted reports arrive through @svc/runtime (pointed at the
// service with `serviceUrl`), and the commands it prints work as printed.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { spawnProcess } from '@svc/testkit';
import { expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

it('serves, creates the demo project once, sends signed+encrypted reports, keeps serving, and prints working svc-server commands', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
  try {
    let printed = '';
    let previousToken: string | undefined;
    for (const round of [1, 2]) {
      const p = spawnProcess(process.execPath, [MAIN, '--port', '0', '--data-dir', dataDir], {
        cwd: ROOT,
      });
      try {
        await p.waitFor(/Still serving on (http:\/\/127\.0\.0\.1:\d+)/, 60_000);
        const out = p.output();
        expect(out).toMatch(round === 1 ? /Keys \(shown once\)/ : /already exist/);
        expect(out).toMatch(/"failed":0/);
        expect(out).toMatch(
          new RegExp(`#\\d+ +todo +0 +critical +medium +${round * 3} +code +Payment token missing`),
        );
        // The throw site, resolved by the runtime's location capture, relative to the app root.
        expect(out).toMatch(/@ src\/reports\.js:\d+/);
        expect(out).toMatch(/Checkout total mismatch/);
        const url = /Still serving on (\S+) /.exec(out)![1]!;
        expect((await fetch(`${url}/health`)).status).toBe(200);
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
        printed = out;
      } finally {
        p.kill('SIGTERM');
        await p.exited;
      }
    }
    // The printed key command works as printed, from the repository root (npx svc-server ...).
    const command = /^ +(npx svc-server key create --project 1 --type secret .+)$/m.exec(printed);
    expect(command).not.toBeNull();
    const [npx, ...args] = command![1]!.split(' ');
    const key = await run(npx!, [...args, '--json'], { cwd: ROOT });
    expect(JSON.parse(key.stdout).signingSecret).toMatch(/^svc_sec_[0-9a-f]{64}$/);
    const cards = await run(
      'npx',
      ['svc-server', 'cards', 'list', '--project', '1', '--json', '--data-dir', dataDir],
      {
        cwd: ROOT,
      },
    );
    const payment = JSON.parse(cards.stdout).find(
      (c: { title: string }) => c.title === 'Payment token missing',
    );
    expect(payment.occurrence_count).toBe(6);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
