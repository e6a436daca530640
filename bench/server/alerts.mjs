// Ingestion with alert rules beside ingestion without, in the same run: two services (service.mjs,
// SQLite, each its own process), one with no rule, one whose project has a rule for new cards, one
// for regressions and one counting reports (more than 1 in a minute), all sending to a receiver
// that accepts connections and never answers (every attempt runs to its 10 s deadline, 8 held at
// once). Interleaved round by round, deduplicated reports and new cards (each one a new-card alert
// queued). Usage: node bench/server/alerts.mjs [--duration 3] [--rounds 3] [--connections 20].
// Build the server first (npm run build -w @svc/server). Writes its section of RESULTS.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const CLI = here('../../server/dist/cli.js');

function start(dataDir) {
  const child = spawn(process.execPath, [here('service.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, SVC_DATA_DIR: dataDir },
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
const cli = (dataDir, ...args) => {
  const r = spawnSync(process.execPath, [CLI, ...args, '--data-dir', dataDir], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
};
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};
const report = (title) =>
  JSON.stringify({
    severity: 'major',
    priority: 'medium',
    title,
    description: `TypeError: x is undefined\n    at ${title} (src/app.ts:10:5)`,
    tags: ['env:bench'],
  });

async function load(svc, fresh) {
  let n = 0;
  const cpu0 = cpuMs(svc.child.pid);
  const opts = {
    url: `${svc.info.url}/api/v1/tasks`,
    method: 'POST',
    connections,
    duration,
    headers: {
      'content-type': 'application/json',
      'x-svc-hide-response': 'true',
      authorization: `Bearer ${svc.info.apiKey}`,
    },
    body: report('Deduplicated card'),
  };
  if (fresh) {
    opts.requests = [
      { setupRequest: (req) => ({ ...req, body: report(`New card ${svc.child.pid}-${n++}`) }) },
    ];
  }
  const r = await autocannon(opts);
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    bad: r.non2xx + r.errors + r.timeouts,
    cpuUs: Math.round(((cpuMs(svc.child.pid) - cpu0) * 1000) / Math.max(1, r.requests.total)),
  };
}

// A receiver that takes every connection and never answers.
const held = [];
const silent = createServer((req) => held.push(req));
await new Promise((resolve) => silent.listen(0, '127.0.0.1', resolve));
const hook = `http://127.0.0.1:${silent.address().port}/hook`;

const plainDir = mkdtempSync(join(tmpdir(), 'svc-bench-alerts-'));
const rulesDir = mkdtempSync(join(tmpdir(), 'svc-bench-alerts-'));
const plain = await start(plainDir);
const ruled = await start(rulesDir);
cli(rulesDir, 'webhooks', 'add', '--project', '1', '--url', hook);
cli(rulesDir, 'alerts', 'add', '--project', '1', '--webhook', '1', '--on', 'new');
cli(rulesDir, 'alerts', 'add', '--project', '1', '--webhook', '1', '--on', 'regression');
cli(
  rulesDir,
  'alerts',
  'add',
  '--project',
  '1',
  '--webhook',
  '1',
  '--on',
  'frequency',
  '--more-than',
  '1',
  '--minutes',
  '1',
);

const cases = [
  ['deduplicated', false],
  ['new cards', true],
];
const samples = new Map();
const loadBefore = loadavg();
try {
  for (const svc of [plain, ruled]) await load(svc, false); // warm up
  for (let round = 0; round < rounds; round++) {
    for (const [name, fresh] of cases) {
      const a = await load(plain, fresh);
      const b = await load(ruled, fresh);
      console.log(JSON.stringify({ round, name, plain: a, rules: b }));
      if (!samples.has(name)) samples.set(name, []);
      samples.get(name).push({ a, b, ratio: b.rps / a.rps });
    }
  }
} finally {
  plain.child.kill('SIGINT');
  ruled.child.kill('SIGINT');
}
const loadAfter = loadavg();
const db = new Database(join(rulesDir, 'svc.sqlite'), { readonly: true });
const raised = db.prepare('SELECT state, COUNT(*) AS n FROM alert_deliveries GROUP BY state').all();
const queued = db.prepare('SELECT COUNT(*) AS n FROM alert_queue').get().n;
db.close();
for (const r of held) r.socket.destroy();
silent.close();

const median = (xs) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];
const lines = [
  '## Ingestion beside alert rules (bench/server/alerts.mjs)',
  '',
  `\`node bench/server/alerts.mjs --duration ${duration} --rounds ${rounds} --connections ${connections}\`, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores shared with other work (load ${loadBefore[0].toFixed(1)} before, ${loadAfter[0].toFixed(1)} after). Two services on SQLite, interleaved round by round: a project without rules, and one with a new-card, a regression and a frequency rule (more than 1 report a minute) sending to a receiver that never answers. Medians over rounds; the ratio is per round.`,
  '',
  '| Case | no rules: req/s | p99 ms | CPU µs/req | with rules: req/s | p99 ms | CPU µs/req | with / without (rounds) |',
  '| ---- | --------------- | ------ | ---------- | ----------------- | ------ | ---------- | ----------------------- |',
  ...[...samples].map(([name, xs]) => {
    const ratios = xs.map((x) => x.ratio);
    const pct = (r) => `${Math.round(r * 100)} %`;
    return `| ${name} | ${median(xs.map((x) => x.a.rps))} | ${median(xs.map((x) => x.a.p99))} | ${median(xs.map((x) => x.a.cpuUs))} | ${median(xs.map((x) => x.b.rps))} | ${median(xs.map((x) => x.b.p99))} | ${median(xs.map((x) => x.b.cpuUs))} | ${pct(median(ratios))} (${pct(Math.min(...ratios))}-${pct(Math.max(...ratios))}) |`;
  }),
  '',
  `Alerts raised meanwhile: ${raised.map((r) => `${r.n} ${r.state}`).join(', ') || 'none'}; ${queued} notices still queued at the end; ${held.length} attempts held open by the receiver. Failed requests: ${[...samples.values()].flat().reduce((t, x) => t + x.a.bad + x.b.bad, 0)}.`,
  '',
];
console.log(lines.join('\n'));
const resultsPath = here('RESULTS.md');
const results = readFileSync(resultsPath, 'utf8');
const start_ = results.indexOf(lines[0]);
const next = start_ < 0 ? -1 : results.indexOf('\n## ', start_ + 1);
const updated =
  start_ < 0
    ? `${results.trimEnd()}\n\n${lines.join('\n')}`
    : `${results.slice(0, start_)}${lines.join('\n')}${next < 0 ? '' : results.slice(next)}`;
writeFileSync(resultsPath, updated.endsWith('\n') ? updated : `${updated}\n`);
