// Synchronous cost of one reporting call (string description, location capture off), side by side
// in the same process and run: @svc/runtime `major()`, @sentry/node `captureMessage` and
// `captureException`, and the floor (pushing a prebuilt object into an array). Timed in batches of
// BATCH calls; the queues are drained between batches, outside the timed region.
import * as Sentry from '@sentry/node';
import { createClient } from '@svc/runtime';
import { median, pct, startSink } from './common.mjs';

const BATCH = 50; // below Sentry's transport buffer (64), so Sentry drops nothing between flushes
const BATCHES = Number(process.env.BATCHES ?? 200);
const sink = await startSink();

const svc = createClient(
  {
    apiKey: 'svc_pub_bench',
    captureLocation: false,
    maxQueueSize: 100_000,
    flushIntervalMs: 60_000,
  },
  { serviceUrl: sink.url },
);
Sentry.init({ dsn: `http://public@${sink.url.slice(7)}/1`, sampleRate: 1 });
const error = new Error('bench error');
const floor = [];
const obj = { title: 'Checkout failed', description: 'payment provider timed out' };

const cases = {
  'floor: array.push of a prebuilt object': () => floor.push(obj),
  '@svc/runtime major(title, description)': () =>
    svc.major('Checkout failed', 'payment provider timed out'),
  '@sentry/node captureMessage(title)': () => Sentry.captureMessage('Checkout failed'),
  '@sentry/node captureException(error)': () => Sentry.captureException(error),
};
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let b = 0; b < BATCHES; b++) {
  for (const [name, fn] of Object.entries(cases)) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) fn();
    const t1 = process.hrtime.bigint();
    samples[name].push(Number(t1 - t0) / BATCH);
  }
  floor.length = 0;
  await svc.flush();
  await Sentry.flush(5000);
}
const rows = Object.entries(samples).map(([name, xs]) => {
  const warm = xs.slice(Math.floor(xs.length / 5)); // drop the first 20% (JIT warm-up)
  return { name, median: median(warm), p90: pct(warm, 90) };
});
console.log(
  `| call (${BATCHES} batches of ${BATCH}, first 20% dropped) | median ns/call | p90 ns/call |`,
);
console.log('|---|---|---|');
for (const r of rows) console.log(`| ${r.name} | ${r.median.toFixed(0)} | ${r.p90.toFixed(0)} |`);
console.log('sink received', await sink.counts());
await Sentry.close(2000);
sink.close();
process.exit(0);
