// /health under ingestion load: how long `GET /health` takes while the service ingests, next to the
// same probe on the idle service (the ceiling), all cases interleaved round by round. The load runs
// in a worker thread (health-load.mjs), the probe on the main thread: one keep-alive connection,
// one GET /health every 10 ms. With --before <dist/index.js of another build>, that build runs the
// same rounds too (interleaved with this one), as the peer.
// Usage: node bench/server/health.mjs [--seconds 3] [--rounds 5] [--before server/dist-before/index.js]
// Writes its section of bench/server/RESULTS.md. Build the server first (npm run build -w @svc/server).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
    before: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));

const CASES = [
  { name: 'idle (ceiling)', kind: undefined, connections: 0 },
  { name: 'deduplicated reports, 20 connections', kind: 'dedup', connections: 20 },
  { name: 'new 65 kB cards, 20 connections', kind: 'large', connections: 20 },
  { name: 'new 65 kB cards, 200 connections', kind: 'large', connections: 200 },
];

function start(dist) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-health-'));
  const env = { ...process.env, SVC_DATA_DIR: dataDir };
  if (dist) env.SVC_SERVER_DIST = dist;
  const child = spawn(process.execPath, [here('service.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /READY (.+)\n/.exec(out);
      if (m) resolve({ child, info: JSON.parse(m[1]), exited, dataDir });
    });
    child.on('exit', (code) => reject(new Error(`service exited ${code}`)));
  });
}

/** GET /health on one keep-alive connection every 10 ms for `ms`; the latencies in ms. */
async function probe(url, ms) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const t0 = performance.now();
    await new Promise((resolve, reject) => {
      const req = request(`${url}/health`, { agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
    latencies.push(performance.now() - t0);
    await sleep(10);
  }
  agent.destroy();
  return latencies;
}

let seed = 0;
async function runCase(svc, c) {
  const load =
    c.connections > 0 &&
    new Worker(here('health-load.mjs'), {
      workerData: {
        url: svc.info.url,
        apiKey: svc.info.apiKey,
        connections: c.connections,
        kind: c.kind,
        seed: `${process.pid}-${seed++}`,
      },
    });
  if (load) await sleep(300); // the load reaches its pace before the probe starts
  const latencies = await probe(svc.info.url, seconds * 1000);
  let counts = { done: 0, bad: 0 };
  if (load) {
    const answer = new Promise((resolve) => load.once('message', resolve));
    load.postMessage('stop');
    counts = await answer;
    await load.terminate();
  }
  return { latencies, ...counts };
}

const builds = [{ name: 'this build', dist: undefined }];
if (values.before) builds.unshift({ name: 'before', dist: values.before });
const services = [];
for (const b of builds) services.push({ ...b, svc: await start(b.dist) });
const results = new Map(); // `${build}|${case}` -> { latencies, done, bad, seconds }
const loadBefore = loadavg();
for (let r = 0; r < rounds; r++) {
  for (const c of CASES) {
    for (const { name, svc } of r % 2 ? [...services].reverse() : services) {
      const key = `${name}|${c.name}`;
      const out = await runCase(svc, c);
      const acc = results.get(key) ?? { latencies: [], done: 0, bad: 0 };
      acc.latencies.push(...out.latencies);
      acc.done += out.done;
      acc.bad += out.bad;
      results.set(key, acc);
      const sorted = [...out.latencies].sort((a, b) => a - b);
      console.log(
        `round ${r + 1} ${name} / ${c.name}: /health p50 ${sorted[sorted.length >> 1].toFixed(2)} ms, max ${sorted.at(-1).toFixed(1)} ms, ${out.done} reports`,
      );
    }
  }
}
const loadAfter = loadavg();
for (const { svc } of services) {
  svc.child.kill('SIGINT');
  await svc.exited;
  rmSync(svc.dataDir, { recursive: true, force: true });
}

const q = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const ms = (v) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
const rows = [];
for (const c of CASES) {
  for (const { name } of services) {
    const acc = results.get(`${name}|${c.name}`);
    const sorted = [...acc.latencies].sort((a, b) => a - b);
    const rate = c.connections ? Math.round(acc.done / (rounds * seconds)) : '-';
    rows.push([
      c.name,
      name,
      ms(q(sorted, 0.5)),
      ms(q(sorted, 0.99)),
      ms(sorted.at(-1)),
      sorted.length,
      rate,
      c.connections ? acc.bad : '-',
    ]);
  }
}
/** A Markdown table with padded columns (as prettier writes it). */
function markdownTable(head, body) {
  const cells = [head, ...body].map((r) => r.map(String));
  const widths = head.map((_, i) => Math.max(3, ...cells.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(cells[0]), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join(
    '\n',
  );
}
const HEAD = [
  'Load',
  'Build',
  '/health p50 ms',
  'p99 ms',
  'max ms',
  'probes',
  'reports/s',
  'not 2xx',
];
const argv = process.argv.slice(2).join(' ');
const md = `<!-- health: written by bench/server/health.mjs; the other benches keep this section -->

## /health under ingestion load (bench/server/health.mjs)

Command: \`node bench/server/health.mjs ${argv}\` (after \`npm run build -w @svc/server\`).
Machine: 2 CPUs (AMD EPYC), Node ${process.version}, shared with other jobs (load average before
${loadBefore.map((l) => l.toFixed(2)).join(', ')}; after ${loadAfter.map((l) => l.toFixed(2)).join(', ')}).
The service (SQLite, durability \`process\`, limits raised) runs in its own process; the load in a worker thread
of the bench process posts reports at a fixed number of connections while the main thread sends \`GET /health\`
on one keep-alive connection every 10 ms and times each answer. "Idle" is the same probe with no load: the
ceiling. Each case ran ${rounds} times for ${seconds} s, cases and builds interleaved round by round; latencies are
over all probes of all rounds.${values.before ? ' "before" is the build before this change (group commit of up to 512 reports per transaction), run the same way.' : ''}

${markdownTable(HEAD, rows)}

Measured ${new Date().toISOString()}.
`;
const file = here('RESULTS.md');
const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
const at = previous.indexOf('<!-- health');
const next = at >= 0 ? previous.indexOf('<!-- ', at + 1) : -1;
const head = at >= 0 ? previous.slice(0, at) : previous;
const tail = next >= 0 ? `\n${previous.slice(next)}` : '';
writeFileSync(file, `${head.trimEnd()}\n\n${md}${tail}`);
console.log(md);
