import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPostgres, startPostgres } from '../../../../testkit/src/postgres.ts';
import { report, type Service, spawnService } from '../../helpers.ts';
import { requirePostgres } from '../../store-kind.ts';

// Black-box, PostgreSQL only: the built service under 20-way load while PostgreSQL loses every
// session (`pg_terminate_backend`), is stopped (`pg_ctl stop -m fast` and `-m immediate`) and
// started again, or stops answering (SIGSTOP to every process of the cluster). The process stays up, answers 503 with Retry-After (never 500) while the database
// cannot be reached, logs each outage once with a count, reports it on /health and /health/ready,
// and every acknowledged report is a card afterwards.
const UNLIMITED = { team: { burstPerMinute: 1e6, dailyEvents: 1e6 } };

interface Tally {
  statuses: Map<number | 'network', number>;
  /** 503s that came without a numeric Retry-After. */
  bare503: number;
  acked: Set<string>;
}

/**
 * `workers` clients, each posting one title until it is acknowledged (as an SDK retries 503 and
 * network errors; here after 20 ms rather than the Retry-After, to keep the load on), then the next.
 */
function load(svc: Service, prefix: string, workers = 20) {
  const tally: Tally = { statuses: new Map(), bare503: 0, acked: new Set() };
  let stop = false;
  const count = (key: number | 'network') =>
    tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1);
  const worker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const title = `${prefix} ${w}-${i}`;
      for (;;) {
        try {
          const r = await svc.post(report({ title }), {
            ...svc.bearer(),
            'x-svc-hide-response': 'true',
          });
          await r.arrayBuffer();
          count(r.status);
          if (r.status === 201 || r.status === 200) {
            tally.acked.add(title);
            break;
          }
          if (r.status === 503 && !/^\d+$/.test(r.headers.get('retry-after') ?? ''))
            tally.bare503++;
          if (r.status !== 503) break; // anything else is a failure the assertions show
        } catch {
          count('network');
        }
        await sleep(20);
      }
    }
  };
  const running = Array.from({ length: workers }, (_, w) => worker(w));
  return {
    tally,
    async finish() {
      stop = true;
      await Promise.all(running);
      return tally;
    },
  };
}

const health = async (svc: Service, path: string) => {
  const r = await fetch(svc.url + path);
  return { status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.json() };
};

/** Every acknowledged title of the run is a card, and the run made no other card. */
async function expectAllAckedStored(svc: Service, tally: Tally, prefix: string) {
  const cards = (await svc.cards()).filter((c) => c.title.startsWith(`${prefix} `));
  const titles = new Set(cards.map((c) => c.title));
  expect([...tally.acked].filter((t) => !titles.has(t))).toEqual([]);
  expect(cards.length).toBe(tally.acked.size);
}

const onlyAcceptedOr503 = (tally: Tally) =>
  [...tally.statuses.keys()].filter((s) => s !== 201 && s !== 200 && s !== 503);

describe('PostgreSQL sessions terminated under load', () => {
  it('every session terminated twice under 20-way load: alive, no 500, every ack a card', async () => {
    const databaseUrl = await requirePostgres();
    const svc = await spawnService({ databaseUrl, plans: UNLIMITED });
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const run = load(svc, 'Terminated');
      const database = new URL(databaseUrl).pathname.slice(1);
      for (let round = 0; round < 2; round++) {
        while (run.tally.acked.size < 300 * (round + 1)) await sleep(20);
        const { rows } = await admin.query(
          `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
           WHERE datname = $1 AND pid <> pg_backend_pid()`,
          [database],
        );
        expect(rows.length).toBeGreaterThan(0);
      }
      const before = run.tally.acked.size;
      while (run.tally.acked.size < before + 300) await sleep(20);
      const tally = await run.finish();

      expect(svc.proc.child.exitCode).toBe(null);
      expect(tally.statuses.get(500) ?? 0).toBe(0);
      expect(onlyAcceptedOr503(tally)).toEqual([]);
      expect(tally.bare503).toBe(0);
      await expectAllAckedStored(svc, tally, 'Terminated');
      // The lost connections were noticed (idle ones replaced, or a batch failed: an outage line),
      // and no stack was printed.
      expect(svc.proc.output()).toMatch(/PostgreSQL closed \d+ idle pooled connection|unavailable/);
      expect(svc.proc.output()).not.toMatch(/\n\s+at /);
      expect(await health(svc, '/health/ready')).toMatchObject({ status: 200 });
    } finally {
      await admin.end();
      await svc.close();
    }
  });
});

describe('PostgreSQL stopped and started again under load', () => {
  let postgres: RunningPostgres;
  let svc: Service;
  beforeAll(async () => {
    postgres = await startPostgres();
    svc = await spawnService({ databaseUrl: await postgres.createDatabase(), plans: UNLIMITED });
  });
  afterAll(async () => {
    await svc?.close();
    await postgres?.stop();
  });

  for (const mode of ['fast', 'immediate'] as const) {
    it(`pg_ctl stop -m ${mode}: 503 with Retry-After, /health says so, one log line, then back`, async () => {
      const outagesBefore = svc.proc.output().match(/database unavailable/g)?.length ?? 0;
      const run = load(svc, `Stopped ${mode}`);
      while (run.tally.acked.size < 200) await sleep(20);
      await postgres.halt(mode);
      const down503 = run.tally.statuses.get(503) ?? 0;
      while ((run.tally.statuses.get(503) ?? 0) < down503 + 200) await sleep(20);

      expect(await health(svc, '/health')).toEqual({
        status: 200,
        retryAfter: null,
        body: { ok: true, database: 'down' },
      });
      const ready = await health(svc, '/health/ready');
      expect(ready).toMatchObject({ status: 503, body: { ok: false, database: 'down' } });
      expect(Number(ready.retryAfter)).toBeGreaterThanOrEqual(1);
      const direct = await svc.post(report({ title: 'While down' }), svc.bearer());
      expect(direct.status).toBe(503);
      expect(Number(direct.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await direct.json()).toEqual({ message: expect.stringMatching(/unavailable/) });

      await postgres.resume();
      let readyAgain = await health(svc, '/health/ready');
      while (readyAgain.status !== 200) {
        await sleep(100);
        readyAgain = await health(svc, '/health/ready');
      }
      expect(readyAgain.body).toEqual({ ok: true, database: 'up' });
      const acked = run.tally.acked.size;
      while (run.tally.acked.size < acked + 200) await sleep(20);
      const tally = await run.finish();

      expect(svc.proc.child.exitCode).toBe(null);
      expect(tally.statuses.get(500) ?? 0).toBe(0);
      expect(onlyAcceptedOr503(tally)).toEqual([]);
      expect(tally.bare503).toBe(0);
      const log = svc.proc.output();
      expect(log.match(/database unavailable/g)).toHaveLength(outagesBefore + 1);
      const back = [...log.matchAll(/database available again after [\d.]+ s; (\d+) requests? w/g)];
      expect(back).toHaveLength(outagesBefore + 1);
      expect(Number(back.at(-1)![1])).toBeGreaterThanOrEqual(200);
      expect(log).not.toMatch(/\n\s+at /);
      expect(await health(svc, '/health')).toMatchObject({ body: { ok: true, database: 'up' } });
      await expectAllAckedStored(svc, tally, `Stopped ${mode}`);
    });
  }

  it('every PostgreSQL process stopped (SIGSTOP, answers nothing): 503 within the deadlines, then back', async () => {
    const outagesBefore = svc.proc.output().match(/database unavailable/g)?.length ?? 0;
    const run = load(svc, 'Frozen');
    while (run.tally.acked.size < 200) await sleep(20);
    postgres.freeze();
    try {
      // Key lookups give up after 5 s, a batch after 10 s: the requests waiting on them get 503.
      while ((run.tally.statuses.get(503) ?? 0) < 20) await sleep(50);
      const ready = await health(svc, '/health/ready');
      expect(ready).toMatchObject({ status: 503, body: { ok: false, database: 'down' } });
      expect(svc.proc.child.exitCode).toBe(null);
    } finally {
      postgres.thaw();
    }
    while ((await health(svc, '/health/ready')).status !== 200) await sleep(100);
    const acked = run.tally.acked.size;
    while (run.tally.acked.size < acked + 200) await sleep(20);
    const tally = await run.finish();

    expect(tally.statuses.get(500) ?? 0).toBe(0);
    expect(onlyAcceptedOr503(tally)).toEqual([]);
    expect(tally.bare503).toBe(0);
    expect(svc.proc.output().match(/database unavailable/g)?.length).toBeGreaterThan(outagesBefore);
    expect(svc.proc.output()).not.toMatch(/\n\s+at /);
    await expectAllAckedStored(svc, tally, 'Frozen');
  }, 90_000);
});

describe('PostgreSQL stopped while a key is kept in memory', () => {
  it('a kept key does not end the outage a key lookup opened: Retry-After keeps growing, one log line', async () => {
    const postgres = await startPostgres();
    const svc = await spawnService({ databaseUrl: await postgres.createDatabase() });
    let halted = false;
    try {
      // The bearer key is kept by the ingestion route from now on; the signing key is not.
      expect((await svc.post(report({ title: 'Warm' }), svc.bearer())).status).toBe(201);
      await postgres.halt('fast');
      halted = true;
      const body = report({ title: 'Signed while down' });
      expect((await svc.post(body, svc.signed(body))).status).toBe(503);
      await sleep(3000);
      const kept = await svc.post(report({ title: 'Bearer while down' }), svc.bearer());
      expect(kept.status).toBe(503);
      expect(Number(kept.headers.get('retry-after'))).toBeGreaterThanOrEqual(3);
      expect(await health(svc, '/health')).toMatchObject({ body: { database: 'down' } });
      expect(svc.proc.output()).not.toMatch(/database available again/);
      expect(svc.proc.output().match(/database unavailable/g)).toHaveLength(1);
    } finally {
      if (halted) await postgres.resume();
      await svc.close();
      await postgres.stop();
    }
  });
});
