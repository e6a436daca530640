// The write cost of the board's indexes and per-hour triggers, for bench/server/board.mjs: fresh
// services over HTTP (this build with them, this build with them dropped, and the build before when
// given), each loaded by autocannon in turn, round after round, order alternating.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { report } from './board-fill.mjs';

// CPU time (user + system, ms) a process has used: steadier than req/s on a shared machine.
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `services`: [name, started service] pairs; returns one row per case and service. */
export async function measureWrites(services, { rounds, seconds }) {
  const samples = new Map();
  let n = 0;
  const body = (title) =>
    JSON.stringify({
      severity: 'major',
      priority: 'medium',
      title,
      description: report(n).description,
      tags: ['env:bench'],
    });
  // Round -1 warms the processes up (JIT, page cache) and is not counted.
  for (let round = -1; round < rounds; round++) {
    for (const fresh of [true, false]) {
      const order = round % 2 ? [...services].reverse() : services;
      for (const [which, svc] of order) {
        const cpu0 = cpuMs(svc.child.pid);
        const r = await autocannon({
          url: `${svc.url}/api/v1/tasks`,
          method: 'POST',
          connections: 10,
          duration: seconds,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${svc.apiKey}`,
            'x-svc-hide-response': 'true',
          },
          body: body('Deduplicated card'),
          requests: fresh
            ? [{ setupRequest: (req) => ({ ...req, body: body(`New card ${n++}`) }) }]
            : undefined,
        });
        if (round < 0) continue;
        const name = `${fresh ? 'new cards' : 'deduplicated'}, ${which}`;
        if (!samples.has(name)) samples.set(name, []);
        samples.get(name).push({
          rps: r.requests.average,
          cpuUs: ((cpuMs(svc.child.pid) - cpu0) * 1000) / Math.max(1, r.requests.total),
          bad: r.non2xx + r.errors + r.timeouts,
        });
      }
    }
  }
  return [...samples].map(([name, xs]) => ({
    name,
    rps: median(xs.map((x) => x.rps)),
    cpuUs: median(xs.map((x) => x.cpuUs)),
    bad: xs.reduce((a, x) => a + x.bad, 0),
  }));
}
