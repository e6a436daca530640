// Board bench: the board's pages over a project of 100,000 cards, answered by the built service
// in its own process, next to the service's own floor (GET /health, same connection) and, at
// the SQL level, the same page fetched without keyset pagination or without the indexes. Then
// the write cost of the board's indexes and per-hour triggers: ingestion over HTTP with and
// without them, interleaved. Usage:
//   node bench/server/board.mjs [--cards 100000] [--rounds 30] [--write-rounds 5] [--write-seconds 3]
// Writes its section of bench/server/RESULTS.md. Build the server first (npm run build -w @svc/server).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { fill, report } from './board-fill.mjs';

const { values } = parseArgs({
  options: {
    cards: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '30' },
    'write-rounds': { type: 'string', default: '5' },
    'write-seconds': { type: 'string', default: '3' },
  },
});
const CARDS = Number(values.cards);
const ROUNDS = Number(values.rounds);
const WRITE_ROUNDS = Number(values['write-rounds']);
const WRITE_SECONDS = Number(values['write-seconds']);
/** The deep page: row 50,000 (or the middle of a smaller board). */
const DEEP = Math.min(50_000, Math.floor(CARDS / 2));
const deep = DEEP.toLocaleString('en-US');
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
function start(dataDir, args = []) {
  const child = spawn(process.execPath, [here('board-service.mjs'), dataDir, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
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

const cursor = (key) => Buffer.from(JSON.stringify(key)).toString('base64url');
const quantile = (xs, q) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

async function measurePages(dataDir, projectId) {
  const db = new Database(join(dataDir, 'svc.sqlite'), { readonly: true });
  const at = (order, columns) =>
    Object.values(
      db
        .prepare(
          `SELECT ${columns} FROM cards WHERE project_id = ? ORDER BY ${order} LIMIT 1 OFFSET ${DEEP - 1}`,
        )
        .get(projectId),
    );
  const lastSeenDeep = at('last_seen_at DESC, id DESC', 'last_seen_at, id');
  const titleDeep = at('title, id', 'title, id');
  const manyVariants = db
    .prepare("SELECT id FROM cards WHERE title = 'Card with many variants'")
    .pluck()
    .get();
  const cols =
    'id, title, severity, priority, tags, occurrence_count, description_type, created_at, last_seen_at';
  const sql = {
    keyset: db.prepare(
      `SELECT ${cols} FROM cards WHERE project_id = ? AND (last_seen_at, id) < (?, ?) ORDER BY last_seen_at DESC, id DESC LIMIT 51`,
    ),
    offset: db.prepare(
      `SELECT ${cols} FROM cards WHERE project_id = ? ORDER BY last_seen_at DESC, id DESC LIMIT 51 OFFSET ${DEEP}`,
    ),
    scanOffset: db.prepare(
      `SELECT ${cols} FROM cards NOT INDEXED WHERE project_id = ? ORDER BY last_seen_at DESC, id DESC LIMIT 51 OFFSET ${DEEP}`,
    ),
    scanFirst: db.prepare(
      `SELECT ${cols} FROM cards NOT INDEXED WHERE project_id = ? ORDER BY last_seen_at DESC, id DESC LIMIT 51`,
    ),
  };
  const svc = await start(dataDir);
  const base = `/board/projects/${projectId}`;
  const http = [
    ['ceiling: GET /health, same server and connection', '/health'],
    ['accounts page (20 accounts a page)', '/board'],
    ['cards, first page (last seen)', base],
    [`cards, page at row ${deep} (last seen, keyset)`, `${base}?after=${cursor(lastSeenDeep)}`],
    ['cards, sorted by count', `${base}?sort=count`],
    [
      `cards, by title, page at row ${deep}`,
      `${base}?sort=title&dir=asc&after=${cursor(titleDeep)}`,
    ],
    ['cards, severity = critical', `${base}?severity=critical`],
    ['cards, priority = low, sorted by count', `${base}?priority=low&sort=count`],
    ['cards, tag on 10 cards (scan of the sort index)', `${base}?tag=rare`],
    ['cards, title text matching nothing (full scan)', `${base}?q=no-such-text`],
    ['card page, 20 variants + Other variants', `${base}/cards/${manyVariants}`],
  ];
  const local = [
    [
      `SQL: keyset page at row ${deep} (what the board runs)`,
      () => sql.keyset.all(projectId, ...lastSeenDeep),
    ],
    [`SQL peer: OFFSET ${deep} over the same index`, () => sql.offset.all(projectId)],
    [`SQL peer: OFFSET ${deep} without indexes (scan + sort)`, () => sql.scanOffset.all(projectId)],
    ['SQL peer: first page without indexes (scan + sort)', () => sql.scanFirst.all(projectId)],
  ];
  const samples = new Map([...http, ...local].map(([name]) => [name, []]));
  const bytes = new Map();
  const headers = { authorization: `Bearer ${svc.token}` };
  try {
    for (const [, path] of http) {
      const res = await fetch(svc.url + path, { headers }); // warm-up, and check it answers
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      bytes.set(path, (await res.arrayBuffer()).byteLength);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, path] of http) {
        const t0 = performance.now();
        const res = await fetch(svc.url + path, { headers });
        await res.arrayBuffer();
        samples.get(name).push(performance.now() - t0);
      }
      for (const [name, run] of local) {
        const t0 = performance.now();
        run();
        samples.get(name).push(performance.now() - t0);
      }
    }
  } finally {
    svc.child.kill('SIGTERM');
    db.close();
  }
  return [...http, ...local].map(([name, path]) => ({
    name,
    median: quantile(samples.get(name), 0.5),
    p95: quantile(samples.get(name), 0.95),
    bytes: typeof path === 'string' ? bytes.get(path) : undefined,
  }));
}

// CPU time (user + system, ms) a process has used: steadier than req/s on a shared machine.
const cpuMs = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};

/**
 * What the board's indexes and triggers cost ingestion: two services over HTTP, one with them
 * and one with them dropped, each loaded by autocannon in turn, round after round.
 */
async function measureWrites() {
  const services = [await start('-', ['--fresh']), await start('-', ['--fresh', '--bare'])];
  const samples = new Map();
  let n = 0;
  const body = (title) =>
    JSON.stringify({
      severity: 'major',
      priority: 'medium',
      title,
      description: report(n).description,
      tags: ['env:bench'],
    });
  try {
    // Round -1 warms both processes up (JIT, page cache) and is not counted.
    for (let round = -1; round < WRITE_ROUNDS; round++) {
      for (const fresh of [true, false]) {
        for (const [which, svc] of round % 2
          ? [...services.entries()].reverse()
          : [...services.entries()]) {
          const cpu0 = cpuMs(svc.child.pid);
          const r = await autocannon({
            url: `${svc.url}/api/v1/tasks`,
            method: 'POST',
            connections: 10,
            duration: WRITE_SECONDS,
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${svc.apiKey}`,
              'x-svc-hide-response': 'true',
            },
            body: body('Deduplicated card'),
            requests: fresh
              ? [{ setupRequest: (req) => ({ ...req, body: body(`New card ${n++}`) }) }]
              : undefined,
          });
          if (round < 0) continue;
          const name = `${fresh ? 'new cards' : 'deduplicated'}, ${which === 0 ? 'with' : 'without'} the board indexes`;
          if (!samples.has(name)) samples.set(name, []);
          samples.get(name).push({
            rps: r.requests.average,
            cpuUs: ((cpuMs(svc.child.pid) - cpu0) * 1000) / Math.max(1, r.requests.total),
            bad: r.non2xx + r.errors + r.timeouts,
          });
        }
      }
    }
  } finally {
    for (const svc of services) svc.child.kill('SIGTERM');
  }
  return [...samples].map(([name, xs]) => ({
    name,
    rps: quantile(
      xs.map((x) => x.rps),
      0.5,
    ),
    cpuUs: quantile(
      xs.map((x) => x.cpuUs),
      0.5,
    ),
    bad: xs.reduce((a, x) => a + x.bad, 0),
  }));
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-board-bench-'));
let md;
try {
  console.log(`Filling a board with ${CARDS} cards through the ingest path...`);
  const { projectId, seconds } = await fill(dataDir, CARDS);
  const size = readFileSync(join(dataDir, 'svc.sqlite')).byteLength;
  console.log(
    `Filled in ${seconds.toFixed(1)} s (${(size / 2 ** 20).toFixed(0)} MiB); measuring pages...`,
  );
  const rows = await measurePages(dataDir, projectId);
  console.log('Measuring the write cost of the board indexes...');
  const writes = await measureWrites();
  const table = rows.map(
    (r) =>
      `| ${r.name} | ${ms(r.median)} | ${ms(r.p95)} | ${r.bytes === undefined ? '' : r.bytes.toLocaleString('en-US')} |`,
  );
  md = `<!-- board: written by bench/server/board.mjs; run.mjs keeps this section -->
## Board: the cards page over ${CARDS.toLocaleString('en-US')} cards (bench/server/board.mjs)

Command: \`node bench/server/board.mjs --cards ${CARDS} --rounds ${ROUNDS} --write-rounds ${WRITE_ROUNDS} --write-seconds ${WRITE_SECONDS}\` (after \`npm run build -w @svc/server\`).
Machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, shared with other jobs.
One project filled through the store's real ingest path (${CARDS.toLocaleString('en-US')} new cards plus 25 % repeats,
spread over 30 days; ${seconds.toFixed(0)} s, ${(size / 2 ** 20).toFixed(0)} MiB). The service runs with the board in its own process;
each page is fetched ${ROUNDS} times with an admin token over one keep-alive connection, all cases interleaved round
by round, next to the service's own floor (\`GET /health\`). The SQL rows run on the same file in the bench
process: the board's keyset query against the \`OFFSET\` pagination a simpler board would use, with and without
the indexes. Bytes are the uncompressed HTML of the page.

| Case | median ms | p95 ms | bytes |
|---|---|---|---|
${table.join('\n')}

What the board's five sort indexes and per-hour triggers (migration 3) cost ingestion: two services over
HTTP, one with them and one with them dropped, loaded in turn by autocannon (10 connections, ${WRITE_SECONDS} s,
${WRITE_ROUNDS} rounds after a warm-up round, order alternating); medians over the rounds.

| Case | req/s | server CPU µs/req | bad |
|---|---|---|---|
${writes.map((w) => `| ${w.name} | ${Math.round(w.rps)} | ${Math.round(w.cpuUs)} | ${w.bad} |`).join('\n')}

Measured ${new Date().toISOString()}.
`;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
const results = here('RESULTS.md');
const previous = existsSync(results) ? readFileSync(results, 'utf8') : '';
const mark = previous.indexOf('<!-- board');
// The memory section (bench/server/memory.mjs) follows this one; keep it.
const memory = previous.indexOf('<!-- memory');
writeFileSync(
  results,
  `${(mark >= 0 ? previous.slice(0, mark) : `${previous}\n`).trimEnd()}\n\n${md}${
    memory >= 0 ? `\n${previous.slice(memory)}` : ''
  }`,
);
console.log(md);
