// Delivery: reports per second delivered to a local sink (a child process) at the default
// concurrency, and client CPU time per delivered report, side by side in one run:
//  - ceiling: raw `fetch` POSTs of the same prebuilt body, 3 at a time (no SDK work at all);
//  - @svc/runtime: N reports, then flush();
//  - @sentry/node: N captureMessage, then Sentry.flush().
// Delivered = requests the sink counted. CPU = process.cpuUsage() of this (client) process.
import * as Sentry from '@sentry/node';
import { createClient } from '@svc/runtime';
import { startSink } from './common.mjs';

const N = Number(process.env.REPORTS ?? 2000);
const sink = await startSink();

async function measure(name, key, run) {
  const before = (await sink.counts())[key];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const delivered = (await sink.counts())[key] - before;
  const cpuUs = cpu.user + cpu.system;
  return {
    name,
    delivered,
    perSecond: (delivered / ms) * 1000,
    cpuUsPerReport: delivered ? cpuUs / delivered : NaN,
  };
}

const body = JSON.stringify({
  severity: 'major',
  priority: 'medium',
  title: 'Checkout failed',
  tags: [],
  description: 'payment provider timed out',
});
async function rawFetch(n) {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const res = await fetch(`${sink.url}/api/v1/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
        body,
      });
      await res.text();
    }
  };
  await Promise.all([worker(), worker(), worker()]);
}

async function svcRun() {
  const client = createClient(
    { apiKey: 'svc_pub_bench', captureLocation: false, maxQueueSize: N },
    { serviceUrl: sink.url },
  );
  for (let i = 0; i < N; i++) client.major('Checkout failed', `payment provider timed out ${i}`);
  const r = await client.flush();
  if (r.sent !== N) console.error('svc flush result', r);
}

// Warm-up (JIT, connection pool), not counted; then the two alternate twice.
await rawFetch(300);
const rows = [];
for (let round = 1; round <= 2; round++) {
  rows.push(
    await measure(`ceiling: raw fetch, 3 in flight, prebuilt body (round ${round})`, 'svc', () =>
      rawFetch(N),
    ),
  );
  rows.push(
    await measure(`@svc/runtime (defaults, concurrency 3) (round ${round})`, 'svc', svcRun),
  );
}
Sentry.init({ dsn: `http://public@${sink.url.slice(7)}/1`, sampleRate: 1 });
rows.push(
  await measure('@sentry/node (defaults)', 'sentry', async () => {
    for (let i = 0; i < N; i++) Sentry.captureMessage(`Checkout failed ${i}`);
    await Sentry.flush(60_000);
  }),
);
console.log(
  `| client (${N} reports) | delivered | delivered/s | client CPU µs per delivered report |`,
);
console.log('|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.delivered} | ${r.perSecond.toFixed(0)} | ${r.cpuUsPerReport.toFixed(0)} |`,
  );
await Sentry.close(2000);
sink.close();
process.exit(0);
