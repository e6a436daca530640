// Synchronous cost of one reporting call (location capture off), side by side in the same process
// and run: @svc/runtime `major()` with a string and with an Error, @sentry/node `captureMessage`
// and `captureException`, and the floors (pushing a prebuilt object into an array; making an
// Error). Every Error case makes a fresh Error per call, on both sides: Sentry skips an Error
// object it has already captured, so reusing one would time a no-op. Timed in batches of BATCH
// calls; the queues are drained between batches, outside the timed region. The sink's counts
// show what each side sent.
import * as Sentry from '@sentry/node';
import { createClient } from '@svc/runtime';
import { median, pct, startSink } from './common.mjs';

const BATCH = 50; // below Sentry's transport buffer (64); queues are drained after each case
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
// Sentry's Dedupe integration drops an event equal to the previous one (same message and stack):
// every call here would be dropped after the first, while Svc queues each one. Without it both
// sides send every report.
Sentry.init({
  dsn: `http://public@${sink.url.slice(7)}/1`,
  sampleRate: 1,
  integrations: (defaults) => defaults.filter((integration) => integration.name !== 'Dedupe'),
});
const floor = [];
const obj = { title: 'Checkout failed', description: 'payment provider timed out' };

const cases = {
  'floor: array.push of a prebuilt object': () => floor.push(obj),
  'floor: new Error()': () => floor.push(new Error('payment provider timed out')),
  '@svc/runtime major(title, description)': () =>
    svc.major('Checkout failed', 'payment provider timed out'),
  '@svc/runtime major(title, new Error())': () =>
    svc.major('Checkout failed', new Error('payment provider timed out')),
  '@sentry/node captureMessage(title)': () => Sentry.captureMessage('Checkout failed'),
  '@sentry/node captureException(new Error())': () =>
    Sentry.captureException(new Error('payment provider timed out')),
};
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let b = 0; b < BATCHES; b++) {
  for (const [name, fn] of Object.entries(cases)) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) fn();
    const t1 = process.hrtime.bigint();
    samples[name].push(Number(t1 - t0) / BATCH);
    // After each case, so no more than one batch waits in Sentry's 64-event transport buffer.
    floor.length = 0;
    await svc.flush();
    await Sentry.flush(5000);
  }
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
