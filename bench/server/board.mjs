// Board bench: the board's pages over a project of 100,000 cards (0.1 % of them resolved),
// answered by the built service in its own process, next to the service's own floor (GET /health,
// same connection) and, at the SQL level, the same page fetched without keyset pagination or
// without the indexes. With --before <another build's dist/index.js>, that build serves a copy of
// the same data (filled by it, so with its own schema; this build migrates its copy at start), every
// case alternating between the two. Then `GET /health` while searches run (what a search holds the
// event loop for), and the write cost of the board's indexes and per-hour triggers. Usage:
//   node bench/server/board.mjs [--cards 100000] [--rounds 30] [--write-rounds 5] [--write-seconds 3]
//     [--before server/dist-before/index.js]
// Writes its section of bench/server/RESULTS.md. Build the server first (npm run build -w @svc/server).
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fill } from './board-fill.mjs';
import { healthUnderSearch, measurePages, ms } from './board-pages.mjs';
import { measureWrites } from './board-writes.mjs';

const { values } = parseArgs({
  options: {
    cards: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '30' },
    'write-rounds': { type: 'string', default: '5' },
    'write-seconds': { type: 'string', default: '3' },
    before: { type: 'string' },
  },
});
const CARDS = Number(values.cards);
const ROUNDS = Number(values.rounds);
const WRITE_ROUNDS = Number(values['write-rounds']);
const WRITE_SECONDS = Number(values['write-seconds']);
const BEFORE = values.before;
/** The deep page: row 50,000 (or the middle of a smaller board). */
const DEEP = Math.min(50_000, Math.floor(CARDS / 2));
const here = (f) => fileURLToPath(new URL(f, import.meta.url));

function start(dataDir, args = [], dist = undefined) {
  const env = { ...process.env };
  if (dist) env.SVC_SERVER_DIST = dist;
  const started = performance.now();
  const child = spawn(process.execPath, [here('board-service.mjs'), dataDir, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /READY (.+)\n/.exec(out);
      if (m) resolve({ child, startMs: performance.now() - started, ...JSON.parse(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`board-service exited ${code}`)));
  });
}

const root = mkdtempSync(join(tmpdir(), 'svc-board-bench-'));
const dirs = { before: join(root, 'before'), after: join(root, 'after') };
let md;
const running = [];
try {
  const first = BEFORE ? dirs.before : dirs.after;
  console.log(`Filling a board with ${CARDS} cards through the ingest path...`);
  const { projectId, seconds, done } = await fill(first, CARDS, BEFORE);
  const size = readFileSync(join(first, 'svc.sqlite')).byteLength;
  if (BEFORE) {
    // The same data for this build, which migrates its copy when it starts.
    mkdirSync(dirs.after);
    for (const f of ['svc.sqlite', 'svc.sqlite-wal', 'svc.sqlite-shm']) {
      if (existsSync(join(first, f))) copyFileSync(join(first, f), join(dirs.after, f));
    }
  }
  console.log(
    `Filled in ${seconds.toFixed(1)} s (${(size / 2 ** 20).toFixed(0)} MiB); measuring pages...`,
  );
  const services = [];
  if (BEFORE) services.push(['before', await start(dirs.before, [], BEFORE)]);
  services.push(['this build', await start(dirs.after)]);
  running.push(...services.map(([, svc]) => svc));
  for (const [, svc] of services) svc.projectId = projectId;
  const rows = await measurePages(services, dirs.after, projectId, { deep: DEEP, rounds: ROUNDS });
  console.log('Measuring /health while searches run...');
  const underSearch = await healthUnderSearch(services);
  for (const svc of running.splice(0)) svc.child.kill('SIGTERM');
  console.log('Measuring the write cost of the board indexes...');
  const writers = [
    ['this build, with the board indexes', await start('-', ['--fresh'])],
    ['this build, without them', await start('-', ['--fresh', '--bare'])],
  ];
  if (BEFORE)
    writers.push(['before, with its board indexes', await start('-', ['--fresh'], BEFORE)]);
  running.push(...writers.map(([, svc]) => svc));
  const writes = await measureWrites(writers, { rounds: WRITE_ROUNDS, seconds: WRITE_SECONDS });
  const names = services.map(([which]) => which);
  const header = `| Case | ${names.map((n) => `${n}: median ms | p95 ms`).join(' | ')} | bytes |`;
  const table = rows.map((r) => {
    // SQL rows run on this build's file: its columns only.
    const cells = names.map((_, i) => {
      const s = r.sqlOnly ? (i === names.length - 1 ? r.by[0] : undefined) : r.by[i];
      return `${ms(s?.median)} | ${ms(s?.p95)}`;
    });
    const size = r.bytes?.at(-1);
    return `| ${r.name} | ${cells.join(' | ')} | ${size === undefined ? '' : size.toLocaleString('en-US')} |`;
  });
  const startup = services
    .map(([which, svc]) => `${which} ${(svc.startMs / 1000).toFixed(1)} s`)
    .join(', ');
  md = `<!-- board: written by bench/server/board.mjs; run.mjs keeps this section -->
## Board: the cards page over ${CARDS.toLocaleString('en-US')} cards (bench/server/board.mjs)

Command: \`node bench/server/board.mjs --cards ${CARDS} --rounds ${ROUNDS} --write-rounds ${WRITE_ROUNDS} --write-seconds ${WRITE_SECONDS}${BEFORE ? ` --before ${BEFORE}` : ''}\` (after \`npm run build -w @svc/server\`).
Machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, shared with other jobs.
One project filled through the store's real ingest path (${CARDS.toLocaleString('en-US')} new cards plus 25 % repeats,
spread over 30 days; ${seconds.toFixed(0)} s, ${(size / 2 ** 20).toFixed(0)} MiB), then ${done} cards (0.1 %) resolved. The service runs
with the board in its own process; each page is fetched ${ROUNDS} times with an admin token over one keep-alive
connection, all cases interleaved round by round, next to the service's own floor (\`GET /health\`).${
    BEFORE
      ? ` The build before
this change (\`${BEFORE}\`) serves a copy of the same data, filled by it; the two alternate case by case. Start-up
(with this build's migration of the copy): ${startup}.`
      : ''
  } The SQL rows run on
the same file in the bench process: the board's keyset query against the \`OFFSET\` pagination a simpler board
would use, with and without the indexes. Bytes are the uncompressed HTML of this build's page.

${header}
|${'---|'.repeat(names.length * 2 + 2)}
${table.join('\n')}

Reading it: a status few cards have (\`done\`, 0.1 %) walked the sort's index past all the others
before; each sort's index is now led by the status (SQLite migration 6), so the tab reads its own
range. SQLite's title sort keeps deduplication's index and checks the status row by row, so that
row stops at the search budget (20,000 cards, or 100 ms) with about 20 of the 100 cards and a
**Continue searching** link (15 kB page); a status-led title index made that row 3 ms but each new
card about 15 % dearer to ingest, and was left out. A tag or title text no index holds scanned all
100,000 cards on the event loop; it now reads at most 20,000, 1,000 at a time with the event loop
free between, which is what \`GET /health\` shows while searches run.

\`GET /health\` on one connection while two clients search without pause (a tag on 10 cards, then text
matching nothing, in turn), ${6} rounds of 2 s alternating the services: what a search holds the event loop for.

| Service | /health median ms | p95 ms | p99 ms | max ms | searches/s |
|---|---|---|---|---|---|
${underSearch.map((h) => `| ${h.which} | ${ms(h.median)} | ${ms(h.p95)} | ${ms(h.p99)} | ${ms(h.max)} | ${h.searchesPerSecond.toFixed(1)} |`).join('\n')}

What the board's sort indexes and per-hour triggers cost ingestion: services over HTTP, loaded in turn by
autocannon (10 connections, ${WRITE_SECONDS} s, ${WRITE_ROUNDS} rounds after a warm-up round, order alternating); medians over the rounds.

| Case | req/s | server CPU µs/req | bad |
|---|---|---|---|
${writes.map((w) => `| ${w.name} | ${Math.round(w.rps)} | ${Math.round(w.cpuUs)} | ${w.bad} |`).join('\n')}

Measured ${new Date().toISOString()}.
`;
} finally {
  for (const svc of running) svc.child.kill('SIGTERM');
  rmSync(root, { recursive: true, force: true });
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
