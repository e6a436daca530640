// Delivery: client CPU per delivered report, and reports per second, at concurrency 3 to a local
// sink (a child process, so its CPU is not charged to the client), side by side in one run:
//  - ceiling: a bare keep-alive `node:http` POST loop (one Agent, 3 sockets, 3 in flight) of one
//    prebuilt body, reading each answer; no SDK work at all;
//  - @svc/runtime, bearer: N reports (location off), then flush();
//  - signed ceiling: the same loop, each request signed as contract 5.2 says (node:crypto
//    SHA-256 + HMAC-SHA256 of the exact bytes, a fresh timestamp);
//  - @svc/runtime, signed: keyId + signingSecret;
//  - reference: raw `fetch` POSTs of the prebuilt body, 3 in flight (what browsers use);
//  - @sentry/node once (it drops what does not fit its 64-event transport buffer).
// The cases alternate for ROUNDS rounds after a warm-up (odd rounds in reverse order; fetch in a
// phase of its own with the ceiling); the ratio SDK / ceiling is taken per round (same round, same machine state),
// and its median and spread are printed.
// Delivered = requests the sink counted. CPU = process.cpuUsage() of this (client) process.
import { createHash, createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import * as Sentry from '@sentry/node';
import { createClient } from '@svc/runtime';
import { median, startSink } from './common.mjs';

const N = Number(process.env.REPORTS ?? 3000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CONCURRENCY = 3;
const sink = await startSink();
const PATH = '/api/v1/tasks';
const SIGNING = { keyId: 'svck_bench', signingSecret: 'svc_sec_bench0123456789abcdef' };

async function measure(run) {
  const before = (await sink.counts()).svc;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const delivered = (await sink.counts()).svc - before;
  return {
    delivered,
    perSecond: (delivered / ms) * 1000,
    cpuUs: delivered ? (cpu.user + cpu.system) / delivered : Number.NaN,
  };
}

const body = JSON.stringify({
  severity: 'major',
  priority: 'medium',
  title: 'Checkout failed',
  tags: [],
  description: 'payment provider timed out',
});
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const { hostname, port } = new URL(sink.url);

/** Contract 5.2 with node:crypto: the cheapest correct signature of these bytes. */
function signed() {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const digest = createHash('sha256').update(body).digest('hex');
  return {
    'X-Svc-Key-Id': SIGNING.keyId,
    'X-Svc-Timestamp': timestamp,
    'X-Svc-Signature': createHmac('sha256', SIGNING.signingSecret)
      .update(`${timestamp}.POST.${PATH}.${digest}`)
      .digest('hex'),
  };
}

/** One POST on the keep-alive agent; resolves with the answer's status once its body is read. */
function postOnce(auth) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        path: PATH,
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'Content-Length': Buffer.byteLength(body),
          ...auth,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(text && res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function inFlight(n, one) {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const httpLoop = (sign) => () =>
  inFlight(N, () => postOnce(sign ? signed() : { Authorization: 'Bearer x' }));
const fetchLoop = () =>
  inFlight(N, async () => {
    const res = await fetch(`${sink.url}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
      body,
    });
    await res.text();
  });

function svcRun(options) {
  return async () => {
    const client = createClient(
      { captureLocation: false, maxQueueSize: N, ...options },
      { serviceUrl: sink.url },
    );
    for (let i = 0; i < N; i++) client.major('Checkout failed', `payment provider timed out ${i}`);
    const r = await client.flush();
    if (r.sent !== N) console.error('svc flush result', r);
  };
}

const CEILING = 'ceiling: bare node:http keep-alive loop, bearer';
const SIGNED_CEILING = 'signed ceiling: the same loop, signing each request (node:crypto)';
const cases = {
  [CEILING]: httpLoop(false),
  '@svc/runtime, bearer (apiKey)': svcRun({ apiKey: 'svc_pub_bench' }),
  [SIGNED_CEILING]: httpLoop(true),
  '@svc/runtime, signed (keyId + signingSecret)': svcRun(SIGNING),
};
// Node's fetch leaves work behind (garbage, pool timers) that the case after it pays for: it is
// measured in a phase of its own, against the same ceiling.
const references = {
  [`${CEILING} (fetch phase)`]: httpLoop(false),
  'reference: raw fetch, bearer': fetchLoop,
};
const pairs = [
  ['@svc/runtime, bearer (apiKey)', CEILING],
  ['@svc/runtime, signed (keyId + signingSecret)', SIGNED_CEILING],
  ['reference: raw fetch, bearer', `${CEILING} (fetch phase)`],
];

/**
 * WARMUP rounds of every case, not counted (JIT, connection pools: both sides then run optimised
 * code; the SDK has more of it, its first runs cost several times more); then ROUNDS measured
 * rounds, odd ones in reverse order so that no case always follows the same one.
 */
async function interleave(phase, rows) {
  // Through measure() too: the first measured round was otherwise dearer for every case.
  for (let round = 0; round < WARMUP; round++)
    for (const run of Object.values(phase)) await measure(run);
  for (let round = 0; round < ROUNDS; round++) {
    const order = Object.entries(phase);
    if (round % 2) order.reverse();
    for (const [name, run] of order) {
      rows[name] ??= [];
      rows[name].push(await measure(run));
    }
  }
}
const WARMUP = Number(process.env.WARMUP ?? 4);
const rows = {};
await interleave(cases, rows);
await interleave(references, rows);

Sentry.init({ dsn: `http://public@${sink.url.slice(7)}/1`, sampleRate: 1 });
const sentryBefore = (await sink.counts()).sentry;
const cpu0 = process.cpuUsage();
for (let i = 0; i < N; i++) Sentry.captureMessage(`Checkout failed ${i}`);
await Sentry.flush(60_000);
const sentryCpu = process.cpuUsage(cpu0);
const sentryDelivered = (await sink.counts()).sentry - sentryBefore;

const spread = (xs, digits = 0) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
console.log(
  `| client (${N} reports, concurrency ${CONCURRENCY}, ${ROUNDS} interleaved rounds: median (min-max)) | delivered per round | delivered/s | client CPU µs per delivered report |`,
);
console.log('|---|---|---|---|');
for (const [name, xs] of Object.entries(rows))
  console.log(
    `| ${name} | ${xs.map((x) => x.delivered).join(', ')} | ${spread(xs.map((x) => x.perSecond))} | ${spread(xs.map((x) => x.cpuUs))} |`,
  );
console.log(
  `| @sentry/node (defaults), once | ${sentryDelivered} | - | ${((sentryCpu.user + sentryCpu.system) / sentryDelivered).toFixed(0)} |`,
);
console.log('\n| CPU per report, same round | ratio per round | median (min-max) |');
console.log('|---|---|---|');
for (const [sdk, ceiling] of pairs) {
  const ratios = rows[sdk].map((x, i) => x.cpuUs / rows[ceiling][i].cpuUs);
  console.log(
    `| ${sdk} / ${ceiling} | ${ratios.map((r) => r.toFixed(2)).join(', ')} | ${spread(ratios, 2)} |`,
  );
}
await Sentry.close(2000);
sink.close();
process.exit(0);
