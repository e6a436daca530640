// Source maps on the service: deduplicated ingestion of reports whose frames all need mapping
// (cache warm) beside the same reports in a project without maps, interleaved round by round; the
// first report after an upload (same instance) and after a restart (the map read from the
// database), beside a report that needs no map on the same fresh service; uploading a 5 MB map,
// beside the same body posted to a bare node:http server that reads and parses it; and what the
// database keeps of that map. The bundle is real esbuild output (bench/server/sourcemap-app.mjs).
// Usage: node bench/server/sourcemaps.mjs [--duration 3] [--rounds 5] [--connections 20]
//   [--cold-rounds 5] [--upload-rounds 5]   (after `npm run build -w @svc/server`)
// Replaces its own section of bench/server/RESULTS.md.
import { spawn } from 'node:child_process';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { deflateRawSync } from 'node:zlib';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { buildBundle, stackOf } from './sourcemap-app.mjs';
import { writeSection as writeResults } from './results-section.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    'cold-rounds': { type: 'string', default: '5' },
    'upload-rounds': { type: 'string', default: '5' },
    modules: { type: 'string', default: '450' },
  },
});
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.min(...xs)}-${Math.max(...xs)}`;
/** The main thread's time on a core and waiting for one, ms (ns-resolution /proc schedstat). */
const sched = (pid) => {
  const [cpu, wait] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
  return { cpu: cpu / 1e6, wait: wait / 1e6 };
};
/** A request timed by the client, with the service's main-thread CPU and wait for a core. */
async function measured(pid, request) {
  const before = sched(pid);
  const answer = await request();
  const after = sched(pid);
  return { ...answer, cpuMs: after.cpu - before.cpu, waitMs: after.wait - before.wait };
}
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};

function startService(env) {
  const child = spawn(process.execPath, [here('service.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /READY (.+)\n/.exec(out);
      if (m) resolve({ child, info: JSON.parse(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`service exited ${code}`)));
  });
}

const stop = (svc) =>
  new Promise((resolve) => {
    svc.child.removeAllListeners('exit');
    svc.child.once('exit', resolve);
    svc.child.kill('SIGINT');
  });

function signed(body, info) {
  const ts = String(Math.floor(Date.now() / 1000));
  const hash = createHash('sha256').update(body).digest('hex');
  const payload = `${ts}.POST./api/v1/sourcemaps.${hash}`;
  return {
    'content-type': 'application/json',
    'x-svc-key-id': info.keyId,
    'x-svc-timestamp': ts,
    'x-svc-signature': createHmac('sha256', info.signingSecret).update(payload).digest('hex'),
  };
}

async function timed(url, init) {
  const t = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  return { ms: performance.now() - t, status: res.status, text };
}

const post = (info, key, body) =>
  timed(`${info.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body,
  });

async function load(info, key, body, pid) {
  const cpu0 = cpuMs(pid);
  const r = await autocannon({
    url: `${info.url}/api/v1/tasks`,
    method: 'POST',
    connections: Number(values.connections),
    duration: Number(values.duration),
    headers: {
      'content-type': 'application/json',
      'x-svc-hide-response': 'true',
      authorization: `Bearer ${key}`,
    },
    body,
  });
  const cpuUs = Math.round(((cpuMs(pid) - cpu0) * 1000) / Math.max(1, r.requests.total));
  return { rps: Math.round(r.requests.average), cpuUs, bad: r.non2xx + r.errors + r.timeouts };
}

/** A bare node:http server that reads a body and parses it as JSON: the upload's floor. */
function floorServer() {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

// 1. The bundle and the service.
const bundle = await buildBundle({ modules: Number(values.modules) });
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-maps-data-'));
let svc = await startService({ SVC_DATA_DIR: dataDir, SVC_BENCH_SECOND: '1' });
const info = svc.info;
const uploadBody = (release, debugId) =>
  JSON.stringify({
    release,
    path: bundle.path,
    debug_id: debugId,
    map: bundle.map,
    code: bundle.code,
  });
const first = uploadBody('bench-1', randomUUID());
const firstUpload = await timed(`${info.url}/api/v1/sourcemaps`, {
  method: 'POST',
  headers: signed(first, info),
  body: first,
});
if (firstUpload.status !== 201)
  throw new Error(`upload: ${firstUpload.status} ${firstUpload.text}`);
const description = stackOf(bundle, 7).replaceAll('https://app.example/', '');
const reportOf = (release) =>
  JSON.stringify({
    severity: 'major',
    title: 'Checkout failed',
    description,
    tags: [`release:${release}`],
    file_name: bundle.path,
  });
const mappedBody = reportOf('bench-1');
const check = JSON.parse((await post(info, info.apiKey, mappedBody)).text).data;
const frames = description.split('\n').length - 1;
if (check.description.includes(bundle.path) || !check.description.includes('src/modules/m7.js')) {
  throw new Error(`not mapped: ${check.description}`);
}
const unmapped = JSON.parse((await post(info, info.secondApiKey, mappedBody)).text).data;
if (!unmapped.description.includes(bundle.path)) throw new Error('the second project mapped');

// 2. Throughput, interleaved (the order alternates each round).
const rows = { mapped: [], unmapped: [] };
for (let r = 0; r < Number(values.rounds); r++) {
  const order = r % 2 ? ['mapped', 'unmapped'] : ['unmapped', 'mapped'];
  for (const which of order) {
    const key = which === 'mapped' ? info.apiKey : info.secondApiKey;
    const row = await load(info, key, mappedBody, svc.child.pid);
    rows[which].push(row);
    console.log(JSON.stringify({ round: r, which, ...row }));
  }
}
const ratios = rows.mapped.map((m, i) => Math.round((100 * m.rps) / rows.unmapped[i].rps));

// 3. Uploads (each a new debug ID: new content, stored in full) beside the floor, and the first
// report after each (same instance: the upload put the compiled map in memory).
const floor = await floorServer();
const uploads = [];
for (let r = 0; r < Number(values['upload-rounds']); r++) {
  const body = uploadBody(`up-${r}`, randomUUID());
  const pid = svc.child.pid;
  const svcUpload = await measured(pid, () =>
    timed(`${info.url}/api/v1/sourcemaps`, { method: 'POST', headers: signed(body, info), body }),
  );
  if (svcUpload.status !== 201)
    throw new Error(`upload ${r}: ${svcUpload.status} ${svcUpload.text}`);
  const floorUpload = await timed(floor.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const after = await measured(pid, () =>
    post(info, info.apiKey, reportOf(`up-${r}`).replace('Checkout failed', `After upload ${r}`)),
  );
  uploads.push({
    ms: svcUpload.ms,
    cpuMs: svcUpload.cpuMs,
    waitMs: svcUpload.waitMs,
    floorMs: floorUpload.ms,
    afterMs: after.ms,
    afterCpuMs: after.cpuMs,
  });
  console.log(JSON.stringify({ upload: r, ...uploads.at(-1) }));
}
floor.server.close();

// 4. Cold: a restarted service (the data kept) answers a report that needs no map, then one whose
// map it reads from the database.
const colds = [];
for (let r = 0; r < Number(values['cold-rounds']); r++) {
  await stop(svc);
  svc = await startService({ SVC_DATA_DIR: dataDir, SVC_BENCH_NO_SEED: '1' });
  await fetch(`${svc.info.url}/health`);
  const pid = svc.child.pid;
  const plain = await measured(pid, () =>
    post(svc.info, info.secondApiKey, mappedBody.replace('Checkout failed', `Cold plain ${r}`)),
  );
  const cold = await measured(pid, () =>
    post(svc.info, info.apiKey, mappedBody.replace('Checkout failed', `Cold ${r}`)),
  );
  if (cold.status >= 300 || !cold.text.includes('src/modules/m7.js'))
    throw new Error(`cold: ${cold.text}`);
  colds.push({
    plainMs: plain.ms,
    plainCpuMs: plain.cpuMs,
    coldMs: cold.ms,
    coldCpuMs: cold.cpuMs,
    coldWaitMs: cold.waitMs,
  });
  console.log(JSON.stringify({ cold: r, ...colds.at(-1) }));
}
await stop(svc);

// 5. What the database keeps of one upload.
const db = new Database(join(dataDir, 'svc.sqlite'), { readonly: true });
const kept = db
  .prepare(
    `SELECT f.bytes, length(f.mappings) AS mappings, length(f.meta) AS meta, length(f.checkpoints) AS checkpoints,
       (SELECT COALESCE(SUM(length(content)), 0) FROM sourcemap_sources WHERE file_id = f.id) AS sources
     FROM sourcemap_files f ORDER BY f.id LIMIT 1`,
  )
  .get();
db.close();
const own = bundle.map.sources
  .map((s, i) => (s.includes('node_modules') ? '' : (bundle.map.sourcesContent[i] ?? '')))
  .join('');
const t0 = performance.now();
for (const [i, s] of bundle.map.sources.entries()) {
  if (!s.includes('node_modules') && bundle.map.sourcesContent[i])
    deflateRawSync(bundle.map.sourcesContent[i]);
}
const deflateMs = performance.now() - t0;

writeSection({
  ratios,
  rows,
  uploads,
  colds,
  kept,
  ownBytes: Buffer.byteLength(own),
  deflateMs,
  frames,
  firstUpload,
});

function writeSection(m) {
  const fmt = (n) => n.toLocaleString('en-US');
  const ms = (x) => x.toFixed(1);
  const med = (key, list) => median(list.map((x) => x[key]));
  const md = `<!-- sourcemaps: written by bench/server/sourcemaps.mjs -->

## Source maps: mapped ingestion, the first report, uploads (bench/server/sourcemaps.mjs)

Command: \`node bench/server/sourcemaps.mjs --duration ${values.duration} --rounds ${values.rounds} --connections ${values.connections} --cold-rounds ${values['cold-rounds']} --upload-rounds ${values['upload-rounds']}\` (after \`npm run build -w @svc/server\`).
Machine: ${cpus().length} CPUs, Node ${process.version}, shared with other engineers' builds and tests (load average
before the run ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}): read the ratios measured in the same run.
The map: esbuild's minified bundle of ${values.modules} generated modules, ${fmt(bundle.mapBytes)} bytes of map (mappings ${fmt(bundle.map.mappings.length)} characters,
${bundle.map.sources.length} sources with their text), ${fmt(bundle.code.length)} bytes of code. The report: a real V8 stack of that chunk, ${m.frames} frames,
all inside it; the service in its own process on SQLite, autocannon in this one, ${values.connections} connections, ${values.duration} s a case,
the two cases alternating which goes first each round.

| Case | req/s (median) | rounds | server CPU µs/req | bad |
| --- | --- | --- | --- | --- |
| unmapped: the same report in a project without maps | ${fmt(med('rps', m.rows.unmapped))} | ${range(m.rows.unmapped.map((r) => r.rps))} | ${med('cpuUs', m.rows.unmapped)} | ${m.rows.unmapped.reduce((a, r) => a + r.bad, 0)} |
| mapped: ${m.frames} frames through the uploaded map, cache warm, deduplicated | ${fmt(med('rps', m.rows.mapped))} | ${range(m.rows.mapped.map((r) => r.rps))} | ${med('cpuUs', m.rows.mapped)} | ${m.rows.mapped.reduce((a, r) => a + r.bad, 0)} |

Mapped / unmapped, per round: ${m.ratios.join(' %, ')} % (median ${median(m.ratios)} %). Target >= 50 %: ${median(m.ratios) >= 50 ? 'met' : 'NOT met'}.
The same from the server's CPU per request (less sensitive to the machine's load than throughput): unmapped / mapped
${Math.round((100 * med('cpuUs', m.rows.unmapped)) / med('cpuUs', m.rows.mapped))} %.

Single requests: wall time from the client, and the service's main thread on a core (CPU) and waiting for
one (the machine's load), from /proc schedstat, ms, medians of the rounds (each round's wall time listed).

| Single request | wall | CPU | waiting | rounds (wall) |
| --- | --- | --- | --- | --- |
| upload of the ${(bundle.mapBytes / 1e6).toFixed(1)} MB map (new content each time: checked, compiled, stored) | ${ms(med('ms', m.uploads))} | ${ms(med('cpuMs', m.uploads))} | ${ms(med('waitMs', m.uploads))} | ${m.uploads.map((u) => ms(u.ms)).join(', ')} |
| floor: the same body to a bare node:http server that reads and parses it | ${ms(med('floorMs', m.uploads))} | - | - | ${m.uploads.map((u) => ms(u.floorMs)).join(', ')} |
| the first report after an upload (same instance) | ${ms(med('afterMs', m.uploads))} | ${ms(med('afterCpuMs', m.uploads))} | - | ${m.uploads.map((u) => ms(u.afterMs)).join(', ')} |
| cold: the first mapped report after a restart (index and map read from the database) | ${ms(med('coldMs', m.colds))} | ${ms(med('coldCpuMs', m.colds))} | ${ms(med('coldWaitMs', m.colds))} | ${m.colds.map((c) => ms(c.coldMs)).join(', ')} |
| floor: the report before it on the same fresh service, needing no map | ${ms(med('plainMs', m.colds))} | ${ms(med('plainCpuMs', m.colds))} | - | ${m.colds.map((c) => ms(c.plainMs)).join(', ')} |

Targets, on wall time: upload of a 5 MB map < 1 s: ${med('ms', m.uploads) < 1000 ? 'met' : 'NOT met'} (its CPU: ${med('cpuMs', m.uploads) < 1000 ? 'under' : 'over'} 1 s); the first report after an upload
< 50 ms: ${med('afterMs', m.uploads) < 50 ? 'met' : 'NOT met'}; after a restart, cold, < 50 ms: ${med('coldMs', m.colds) < 50 ? 'met' : 'NOT met'} (its CPU: ${med('coldCpuMs', m.colds) < 50 ? 'under' : 'over'} 50 ms).
(The very first upload of the run, before the service's code was warm: ${ms(m.firstUpload.ms)} ms.)
Reading: on a loaded machine the wall times are mostly the wait for a core (the "waiting" column); the CPU
column is what each request costs the service, and the ceiling for its wall time on an idle core.

What the database keeps of one upload of ${fmt(m.kept.bytes)} bytes: mappings ${fmt(m.kept.mappings)} bytes as text, ${fmt(m.kept.checkpoints)} bytes of
checkpoints, ${fmt(m.kept.meta)} bytes of JSON (sources, function definitions), and the project's own sources' text
deflated to ${fmt(m.kept.sources)} bytes (${fmt(m.ownBytes)} bytes before; deflating them took ${ms(m.deflateMs)} ms here); dependencies' text is not kept.
Nothing a lookup reads is compressed, so a cold map costs one row read and one JSON parse.
Measured ${new Date().toISOString()}.
`;
  writeResults(here('RESULTS.md'), 'sourcemaps', md);
}
