import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { report, spawnService } from '../helpers.ts';

// Black-box: a service killed with SIGKILL under load loses no report it acknowledged.
it('SIGKILL under load loses no acknowledged report', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-kill-'));
  const svc = await spawnService({
    dataDir,
    plans: { team: { burstPerMinute: 1e6, dailyEvents: 1e6 } },
  });
  const acked = new Set<string>();
  let sent = 0;
  let stop = false;
  const worker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const title = `Kill ${w}-${i}`;
      sent++;
      try {
        const r = await svc.post(report({ title }), svc.bearer());
        if (r.status === 201) acked.add(title);
      } catch {
        // the connection died with the process: not acknowledged
      }
    }
  };
  const workers = Array.from({ length: 32 }, (_, w) => worker(w));
  while (acked.size < 300) await new Promise((r) => setTimeout(r, 20));
  svc.proc.kill('SIGKILL');
  expect(await svc.proc.exited).toBe('SIGKILL');
  stop = true;
  await Promise.all(workers);
  try {
    const stored = new Set((await svc.cards()).map((c) => c.title));
    const lost = [...acked].filter((t) => !stored.has(t));
    expect(lost).toEqual([]);
    expect(acked.size).toBeGreaterThanOrEqual(300);
    // In flight when killed: stored or not, never acknowledged and lost.
    expect(stored.size).toBeLessThanOrEqual(sent);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
