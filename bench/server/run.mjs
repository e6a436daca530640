// Server throughput bench: autocannon on 127.0.0.1 against @svc/server and, in the same run, a
// bare node:http ceiling and a Fastify-alone floor (fastify-floor.mjs). Usage:
// node bench/server/run.mjs [--duration 3] [--rounds 3] [--connections 20] [--cases a,b]
// Writes bench/server/RESULTS.md (not with --cases 'a|b', which runs only the cases whose names contain
// one of the given words, beside the ceiling). Build the server first (npm run build -w @svc/server).
import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import sealedbox from 'tweetnacl-sealedbox-js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    cases: { type: 'string' },
  },
});
const only = values.cases?.split('|').map((c) => c.trim());
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const connections = Number(values.connections);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));

function start(file) {
  const child = spawn(process.execPath, [here(file)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /READY (.+)\n/.exec(out);
      if (m) resolve({ child, info: JSON.parse(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`${file} exited ${code}`)));
  });
}

const report = (title, where = 'f (src/app.ts:10:5)') =>
  JSON.stringify({
    severity: 'major',
    priority: 'medium',
    title,
    description: `TypeError: x is undefined\n    at ${where}`,
    tags: ['env:bench'],
  });
const sign = (body, secret, keyId) => {
  const ts = String(Math.floor(Date.now() / 1000));
  const hash = createHash('sha256').update(body).digest('hex');
  return {
    'x-svc-key-id': keyId,
    'x-svc-timestamp': ts,
    'x-svc-signature': createHmac('sha256', secret)
      .update(`${ts}.POST./api/v1/tasks.${hash}`)
      .digest('hex'),
  };
};
const seal = (plain, pk) =>
  JSON.stringify({
    encrypted: {
      v: 1,
      alg: 'x25519-sealedbox',
      ciphertext: Buffer.from(
        sealedbox.seal(Buffer.from(plain), Buffer.from(pk, 'base64')),
      ).toString('base64'),
    },
  });

// CPU time (user + system, ms) the process has used: per-request CPU is far less sensitive to
// the machine's load than throughput is.
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};

async function load(name, url, { headers, body, fresh }, pid) {
  let n = 0;
  const cpu0 = cpuMs(pid);
  const opts = {
    url: `${url}/api/v1/tasks`,
    method: 'POST',
    connections,
    duration,
    headers: { 'content-type': 'application/json', 'x-svc-hide-response': 'true', ...headers },
    body,
  };
  // `card`: a new title and description each time (a new card); `variant`: a new title with the
  // usual description, so the report folds into one card as a novel variant (then pruned).
  if (fresh === 'card')
    opts.requests = [
      {
        setupRequest: (req) => ({
          ...req,
          body: report(`New card ${process.pid}-${n}`, `g${n++} (src/app.ts:10:5)`),
        }),
      },
    ];
  if (fresh === 'variant')
    opts.requests = [
      { setupRequest: (req) => ({ ...req, body: report(`Variant ${process.pid}-${n++}`) }) },
    ];
  const r = await autocannon(opts);
  const cpuUs = Math.round(((cpuMs(pid) - cpu0) * 1000) / Math.max(1, r.requests.total));
  const bad = r.non2xx + r.errors + r.timeouts;
  const row = {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    bad,
    cpuUs,
  };
  console.log(JSON.stringify(row));
  return row;
}

const ceiling = await start('ceiling.mjs');
const floor = await start('fastify-floor.mjs');
const svc = await start('service.mjs');
const s = svc.info;
const dedup = report('Deduplicated card');
const envelope = seal(dedup, s.publicKey);
const bearer = { authorization: `Bearer ${s.apiKey}` };
const cases = [
  ['peer: Fastify alone, same JSON (no auth, no storage)', { body: dedup, server: floor }],
  ['bearer, deduplicated', { headers: bearer, body: dedup }],
  ['bearer, new cards', { headers: bearer, fresh: 'card' }],
  ['bearer, novel variants of one card', { headers: bearer, fresh: 'variant' }],
  ['signed, deduplicated', { headers: sign(dedup, s.signingSecret, s.keyId), body: dedup }],
  ['bearer + encrypted, deduplicated', { headers: bearer, body: envelope }],
  [
    'signed + encrypted, deduplicated',
    { headers: sign(envelope, s.signingSecret, s.keyId), body: envelope },
  ],
];
const selected = only ? cases.filter(([name]) => only.some((w) => name.includes(w))) : cases;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const samples = new Map();
let loadAfter = [];
const loadBefore = loadavg();
try {
  // Warm both servers (JIT, SQLite page cache) before measuring.
  await autocannon({
    url: `${ceiling.info.url}/`,
    method: 'POST',
    body: dedup,
    duration: 2,
    connections,
  });
  await autocannon({
    url: `${floor.info.url}/api/v1/tasks`,
    method: 'POST',
    body: dedup,
    duration: 2,
    connections,
  });
  await autocannon({
    url: `${s.url}/api/v1/tasks`,
    method: 'POST',
    body: dedup,
    headers: { ...bearer, 'content-type': 'application/json' },
    duration: 2,
    connections,
  });
  // The machine is shared and its load drifts: each case runs right after its own ceiling
  // measurement, round after round, and the ratio is taken per pair (median over rounds).
  for (let round = 0; round < rounds; round++) {
    for (const [name, opts] of selected) {
      const c = await load(
        'ceiling: bare node:http, same JSON',
        ceiling.info.url,
        { body: dedup },
        ceiling.child.pid,
      );
      const target = opts.server ?? { info: s, child: svc.child };
      const r = await load(name, target.info.url, opts, target.child.pid);
      for (const [k, row] of [
        ['ceiling: bare node:http, same JSON', c],
        [name, r],
      ]) {
        if (!samples.has(k)) samples.set(k, []);
        samples.get(k).push({ ...row, ratio: r.rps / c.rps });
      }
    }
  }
} finally {
  loadAfter = loadavg();
  ceiling.child.kill();
  floor.child.kill();
  svc.child.kill();
}
const rows = [...samples].map(([name, xs]) => ({
  name,
  rps: median(xs.map((x) => x.rps)),
  ratio: name.startsWith('ceiling') ? 1 : median(xs.map((x) => x.ratio)),
  p50: median(xs.map((x) => x.p50)),
  p99: median(xs.map((x) => x.p99)),
  total: xs.reduce((n, x) => n + x.total, 0),
  bad: xs.reduce((n, x) => n + x.bad, 0),
  cpuUs: median(xs.map((x) => x.cpuUs)),
  spread: name.startsWith('ceiling')
    ? '-'
    : `${Math.round(Math.min(...xs.map((x) => x.ratio)) * 100)}-${Math.round(Math.max(...xs.map((x) => x.ratio)) * 100)} %`,
}));
const fmtLoad = (l) => l.map((x) => x.toFixed(2)).join(', ');
const TARGETS = [
  ['bearer, deduplicated', 0.8],
  ['bearer + encrypted, deduplicated', 0.5],
  ['signed, deduplicated', 0.6],
  ['bearer, new cards', 0.4],
];
const targets = TARGETS.filter(([name]) => rows.some((r) => r.name === name)).map(
  ([name, want]) => {
    const row = rows.find((r) => r.name === name);
    return `${name} >= ${want * 100} %: ${Math.round(row.ratio * 100)} % (rounds ${row.spread}), ${row.ratio >= want ? 'met' : 'NOT met'}`;
  },
);
const table = rows.map(
  (r) =>
    `| ${r.name} | ${r.rps} | ${Math.round(r.ratio * 100)} % | ${r.spread} | ${r.p50} | ${r.p99} | ${r.cpuUs} | ${r.total} | ${r.bad} |`,
);
const md = `## Server ingestion (bench/server)

Command: \`node bench/server/run.mjs --duration ${duration} --rounds ${rounds} --connections ${connections}\` (after \`npm run build -w @svc/server\`).
Machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, shared with other jobs, so
absolute figures are noisy; the ratio to the ceiling measured in the same run is the figure that matters.
Service, Fastify floor and ceiling each run in their own process; autocannon runs in another. Durability: ${process.env.SVC_DURABILITY ?? 'process'}
(WAL, synchronous=NORMAL). Every request is a real report with \`X-Svc-Hide-Response: true\`; "bad" counts non-2xx, errors and timeouts.

Each case ran ${rounds} times for ${duration} s, each time right after a ${duration} s ceiling run; figures are medians
over the rounds, "of ceiling" is the median of the per-round ratios, "rounds" their lowest and highest.

| Case | req/s | of ceiling | rounds | p50 ms | p99 ms | server CPU µs/req | requests | bad |
|---|---|---|---|---|---|---|---|---|
${table.join('\n')}

Targets (median of per-round ratios to the ceiling): ${targets.join('; ')}.
Load average (1, 5, 15 min) before: ${fmtLoad(loadBefore)}; after: ${fmtLoad(loadAfter)}.
Measured ${new Date().toISOString()}.
`;
console.log(md);
if (only) process.exit(0); // a partial run does not replace the committed table
// The board section (bench/server/board.mjs) follows this one; keep it.
const previous = existsSync(here('RESULTS.md')) ? readFileSync(here('RESULTS.md'), 'utf8') : '';
const board = previous.indexOf('<!-- board');
writeFileSync(here('RESULTS.md'), board >= 0 ? `${md}\n${previous.slice(board)}` : md);
