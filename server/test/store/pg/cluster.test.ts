import { describe, expect, it } from 'vitest';
import { report, type Service, spawnService, TASKS } from '../../helpers.ts';
import { requirePostgres } from '../../store-kind.ts';

// Black-box, PostgreSQL only: two and three service processes on one database behave as one
// instance. Every instance runs on the same fixed clock, so no minute or day boundary falls
// inside a test; requests are spread round-robin over the instances.
const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);

interface Cluster {
  first: Service;
  urls: string[];
  post(i: number, body: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** `size` services on one fresh database; the first seeds the account, project and keys. */
async function startCluster(
  size: number,
  config: Parameters<typeof spawnService>[0] = {},
): Promise<Cluster> {
  const databaseUrl = await requirePostgres();
  const first = await spawnService({ ...config, databaseUrl });
  const rest = await Promise.all(
    Array.from({ length: size - 1 }, () => spawnService({ ...config, databaseUrl, noSeed: true })),
  );
  const urls = [first.url, ...rest.map((s) => s.url)];
  return {
    first,
    urls,
    post: (i, body, headers = first.bearer()) =>
      fetch(urls[i % urls.length] + TASKS, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body,
      }),
    async close() {
      await Promise.all([first, ...rest].map((s) => s.close()));
    },
  };
}

async function many(n: number, send: (i: number) => Promise<Response>) {
  const responses = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
  return Promise.all(
    responses.map(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers })),
  );
}

describe.each([2, 3])('%i instances on one database', (size) => {
  it('1,000 concurrent requests against a remaining quota of N admit exactly N', async () => {
    const cluster = await startCluster(size, {
      now: NOW,
      plans: { team: { burstPerMinute: 100_000, dailyEvents: 400 } },
    });
    try {
      const spent = await many(100, (i) => cluster.post(i, report({ title: `Spend ${i}` })));
      expect(spent.every((r) => r.status === 201)).toBe(true);
      const results = await many(1000, (i) =>
        cluster.post(i, report({ title: `Concurrent ${i}` })),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(300);
      expect(results.filter((r) => r.body.reason === 'quota')).toHaveLength(700);
      expect((await cluster.first.cards()).length).toBe(400);
    } finally {
      await cluster.close();
    }
  });

  it('1,000 concurrent requests against a bucket holding N tokens admit exactly N', async () => {
    const cluster = await startCluster(size, {
      now: NOW,
      plans: { team: { burstPerMinute: 300, dailyEvents: 100_000 } },
    });
    try {
      const first = await many(100, (i) => cluster.post(i, report({ title: `Drain ${i}` })));
      expect(first.every((r) => r.status === 201)).toBe(true);
      const results = await many(1000, (i) =>
        cluster.post(i, report({ title: `Concurrent ${i % 50}` })),
      );
      const admitted = results.filter((r) => r.status === 201 || r.status === 200);
      expect([admitted.length, results.filter((r) => r.status === 429).length]).toEqual([200, 800]);
      // Every token spent exactly once: remaining values 0..199, each once, across instances.
      const remaining = admitted
        .map((r) => Number(r.headers.get('x-ratelimit-remaining')))
        .sort((a, b) => a - b);
      expect(remaining).toEqual(Array.from({ length: 200 }, (_, i) => i));
      const cards = await cluster.first.cards();
      expect(cards.reduce((n, c) => n + c.occurrence_count, 0)).toBe(300);
    } finally {
      await cluster.close();
    }
  });

  it('200 identical reports at once make one card counted 200 times', async () => {
    const cluster = await startCluster(size, {
      now: NOW,
      plans: { team: { burstPerMinute: 100_000, dailyEvents: 100_000 } },
    });
    try {
      const results = await many(200, (i) =>
        cluster.post(i, report({ title: 'Same at once', file_name: `f${i % 4}.ts` })),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 200 && r.body.deduplicated)).toHaveLength(199);
      const cards = await cluster.first.cards();
      expect(cards).toHaveLength(1);
      expect(cards[0]!.occurrence_count).toBe(200);
      expect(cards[0]!.variants.map((v) => v.count).sort()).toEqual([50, 50, 50, 50]);
      expect(cards[0]!.variants.reduce((n, v) => n + v.count, 0)).toBe(200);
    } finally {
      await cluster.close();
    }
  });
});

describe('3 instances on one database', () => {
  it('under load on three hot cards that keep pruning variants, every acknowledged report counts once', async () => {
    const cluster = await startCluster(3, {
      variantCap: 3,
      plans: { team: { burstPerMinute: 1e9, dailyEvents: 1e9 } },
    });
    let acked = 0;
    let sent = 0;
    let stop = false;
    const worker = async (i: number) => {
      while (!stop) {
        const n = sent++;
        const r = await cluster.post(
          i,
          report({ title: `Hot ${n % 3}`, file_name: `f${n % 7}.ts` }),
          { ...cluster.first.bearer(), 'x-svc-hide-response': 'true' },
        );
        await r.text();
        if (r.status === 200 || r.status === 201) acked++;
      }
    };
    try {
      const workers = Array.from({ length: 30 }, (_, i) => worker(i));
      await new Promise((r) => setTimeout(r, 3000));
      stop = true;
      await Promise.all(workers);
      expect(acked).toBe(sent);
      const cards = await cluster.first.cards();
      expect(cards).toHaveLength(3);
      for (const card of cards) {
        // Pruned variants fold into `Other variants`: the counts still add up to the card's.
        expect(card.variants.reduce((n, v) => n + v.count, 0)).toBe(card.occurrence_count);
        expect(card.variants.filter((v) => !v.aggregate)).toHaveLength(3);
      }
      expect(cards.reduce((n, c) => n + c.occurrence_count, 0)).toBe(acked);
    } finally {
      stop = true;
      await cluster.close();
    }
  });

  it('quota warnings: one e-mail per threshold and day, whichever instance crosses it', async () => {
    const cluster = await startCluster(3, {
      now: NOW,
      plans: { team: { burstPerMinute: 100_000, dailyEvents: 100 } },
    });
    try {
      const results = await many(150, (i) => cluster.post(i, report({ title: `Warn ${i % 7}` })));
      expect(
        results.filter((r) => r.status === 201 || (r.status === 200 && !r.body.dropped)),
      ).toHaveLength(100);
      const mail = JSON.parse((await cluster.first.cli('mail', 'list', '--json')).stdout) as {
        subject: string;
      }[];
      expect(mail.map((m) => /(\d+)%/.exec(m.subject)?.[1])).toEqual(['75', '90', '100']);
    } finally {
      await cluster.close();
    }
  });
});

describe('2 instances on one database', () => {
  it('a key revoked through one instance is refused by every instance on the next request', async () => {
    const cluster = await startCluster(2);
    try {
      // Both instances have served the key (anything they might cache is warm).
      for (const i of [0, 1]) {
        expect((await cluster.post(i, report({ title: `Warm ${i}` }))).status).toBe(201);
      }
      const revoked = await cluster.first.cli('key', 'revoke', String(cluster.first.keys.apiKeyId));
      expect(revoked.code).toBe(0);
      for (const i of [0, 1]) {
        expect((await cluster.post(i, report({ title: `After ${i}` }))).status).toBe(401);
      }
      // The project's other keys keep working everywhere.
      const body = report({ title: 'Signed after' });
      const statuses = [];
      for (const i of [0, 1])
        statuses.push((await cluster.post(i, body, cluster.first.signed(body))).status);
      expect(statuses).toEqual([201, 200]);
    } finally {
      await cluster.close();
    }
  });

  it('a revoked key is answered 401 without rate headers by every instance, whatever its body', async () => {
    const cluster = await startCluster(2);
    try {
      for (const i of [0, 1]) {
        expect((await cluster.post(i, report({ title: `Warm ${i}` }))).status).toBe(201);
      }
      const revoked = await cluster.first.cli('key', 'revoke', String(cluster.first.keys.apiKeyId));
      expect(revoked.code).toBe(0);
      for (const i of [0, 1]) {
        for (const body of ['{', report({ title: '', severity: 'nope' })]) {
          const answer = await cluster.post(i, body);
          expect({ instance: i, body, status: answer.status }).toEqual({
            instance: i,
            body,
            status: 401,
          });
          expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
        }
      }
    } finally {
      await cluster.close();
    }
  });

  it('SIGTERM of one instance under load: it exits 0 and every acknowledged report is stored', async () => {
    const plans = { team: { burstPerMinute: 1e6, dailyEvents: 1e6 } };
    const cluster = await startCluster(2, { plans });
    const leaving = await spawnService({
      databaseUrl: cluster.first.databaseUrl,
      noSeed: true,
      plans,
    });
    const targets = [cluster.urls[0]!, leaving.url];
    const acked = new Set<string>();
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const title = `Term ${w}-${i}`;
        try {
          const r = await fetch(targets[w % 2] + TASKS, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...cluster.first.bearer() },
            body: report({ title }),
          });
          if (r.status === 201) acked.add(title);
        } catch {
          // refused once the instance stopped listening: not acknowledged
        }
      }
    };
    try {
      const workers = Array.from({ length: 32 }, (_, w) => worker(w));
      while (acked.size < 400) await new Promise((r) => setTimeout(r, 20));
      leaving.proc.kill('SIGTERM');
      expect(await leaving.proc.exited).toBe(0);
      stop = true;
      await Promise.all(workers);
      const stored = new Set((await cluster.first.cards()).map((c) => c.title));
      expect([...acked].filter((t) => !stored.has(t))).toEqual([]);
    } finally {
      stop = true;
      await leaving.close();
      await cluster.close();
    }
  });

  it('SIGKILL of one instance under load loses no acknowledged report', async () => {
    const cluster = await startCluster(2, {
      plans: { team: { burstPerMinute: 1e6, dailyEvents: 1e6 } },
    });
    const victim = await spawnService({
      databaseUrl: cluster.first.databaseUrl,
      noSeed: true,
      plans: { team: { burstPerMinute: 1e6, dailyEvents: 1e6 } },
    });
    const targets = [...cluster.urls, victim.url];
    const acked = new Set<string>();
    let sent = 0;
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const title = `Kill ${w}-${i}`;
        sent++;
        try {
          const r = await fetch(targets[w % targets.length] + TASKS, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...cluster.first.bearer() },
            body: report({ title }),
          });
          if (r.status === 201) acked.add(title);
        } catch {
          // the connection died with the victim: not acknowledged
        }
      }
    };
    try {
      const workers = Array.from({ length: 48 }, (_, w) => worker(w));
      while (acked.size < 600) await new Promise((r) => setTimeout(r, 20));
      victim.proc.kill('SIGKILL');
      expect(await victim.proc.exited).toBe('SIGKILL');
      const ackedAtKill = acked.size;
      // The surviving instances keep acknowledging.
      while (acked.size < ackedAtKill + 200) await new Promise((r) => setTimeout(r, 20));
      stop = true;
      await Promise.all(workers);
      const stored = new Set((await cluster.first.cards()).map((c) => c.title));
      expect([...acked].filter((t) => !stored.has(t))).toEqual([]);
      expect(stored.size).toBeLessThanOrEqual(sent);
    } finally {
      stop = true;
      await victim.close();
      await cluster.close();
    }
  });
});
