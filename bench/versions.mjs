// Two builds of the repository side by side, interleaved round by round: the service and SDK rows
// of `bench/server/run.mjs`, `bench/server/stores.mjs`, `bench/runtime/sync-cost.mjs` and
// `bench/runtime/delivery.mjs`, each run once per round for the build before (a worktree of an
// older commit, built) and the build after (this one), the order flipped every other round. The
// server benches are this tree's scripts in both cases, pointed at the other build's service with
// SVC_SERVER_DIST; the runtime benches run in each tree (they import that tree's @svc/runtime).
// Usage (both trees built: `npm run build -w runtime -w server`):
//   node bench/versions.mjs --before ../before-worktree [--rounds 5] [--only server,stores,sync,delivery]
//     [--before-dist <index.js>] [--after-dist <index.js>]   (the server benches' builds, if not the trees')
// Prints a markdown table: each figure's median over the rounds per build (lowest-highest), and
// after / before per round (median, lowest-highest). The machine is shared: read the ratios.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    'before-dist': { type: 'string' },
    'after-dist': { type: 'string' },
    rounds: { type: 'string', default: '5' },
    only: { type: 'string', default: 'server,stores,sync,delivery' },
  },
});
if (!values.before) throw new Error('--before <path of the older worktree, built> is required');
const AFTER = fileURLToPath(new URL('..', import.meta.url));
const BEFORE = resolve(values.before);
const rounds = Number(values.rounds);
const only = new Set(values.only.split(','));

/** Runs a command, resolving with its stdout; its stderr goes to ours. */
function run(cwd, args, env = {}) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.on('exit', (code) =>
      code === 0 ? done(out) : fail(new Error(`${args.join(' ')} exited ${code}`)),
    );
  });
}

/** `| a | b | c |` -> ['a', 'b', 'c'] */
const cells = (line) =>
  line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
/** `32 (30-35)` or `1.25 (1.07-1.62)` -> 32 / 1.25 */
const lead = (cell) => Number(cell.split(' ')[0]);

// The service builds the server benches start: each tree's, unless named (two builds of one tree).
const DISTS = {
  [BEFORE]: resolve(values['before-dist'] ?? join(BEFORE, 'server/dist/index.js')),
  [AFTER]: resolve(values['after-dist'] ?? join(AFTER, 'server/dist/index.js')),
};
const serverDist = (tree) => ({ SVC_SERVER_DIST: DISTS[tree] });

/** Each bench: how it runs for a tree, and the figures it gives ({ name: value }). */
const BENCHES = {
  async server(tree) {
    const out = await run(
      AFTER,
      ['bench/server/run.mjs', '--rounds', '1', '--duration', '3', '--cases', 'bearer|signed'],
      serverDist(tree),
    );
    const rows = out
      .split('\n')
      .filter((l) => l.startsWith('{"name"'))
      .map((l) => JSON.parse(l));
    const figures = {};
    for (let i = 0; i + 1 < rows.length; i += 2) {
      const [ceiling, row] = [rows[i], rows[i + 1]];
      figures[`server: ${row.name}, share of the bare node:http ceiling (%)`] =
        (100 * row.rps) / ceiling.rps;
      figures[`server: ${row.name}, service CPU µs per request`] = row.cpuUs;
    }
    return figures;
  },
  async stores(tree) {
    // stores.mjs rewrites its section of bench/server/RESULTS.md: keep the committed one.
    const file = join(AFTER, 'bench/server/RESULTS.md');
    const kept = readFileSync(file, 'utf8');
    let out;
    try {
      out = await run(
        AFTER,
        ['--import', 'tsx', 'bench/server/stores.mjs', '--rounds', '1', '--duration', '3'],
        serverDist(tree),
      );
    } finally {
      writeFileSync(file, kept);
    }
    const rows = Object.fromEntries(
      out
        .split('\n')
        .filter((l) => /^[^|{]+\|[^ ]+.* \{/.test(l))
        .map((l) => {
          const at = l.indexOf(' {');
          return [l.slice(0, at), JSON.parse(l.slice(at + 1))];
        }),
    );
    const figures = {};
    for (const [key, row] of Object.entries(rows)) {
      const [setup, kase] = key.split('|');
      const sqlite = rows[`1 instance, SQLite|${kase}`];
      figures[`stores: ${setup}, ${kase}, req/s`] = row.rps;
      if (!setup.includes('SQLite') || setup.includes('power'))
        figures[`stores: ${setup}, ${kase}, share of SQLite (%)`] = (100 * row.rps) / sqlite.rps;
      figures[`stores: ${setup}, ${kase}, service CPU µs per request`] = row.serviceUs;
    }
    return figures;
  },
  async sync(tree) {
    const out = await run(tree, ['bench/runtime/sync-cost.mjs'], { BATCHES: '100' });
    const median = Object.fromEntries(
      out
        .split('\n')
        .filter((l) => l.startsWith('| ') && !l.startsWith('| call'))
        .map((l) => cells(l))
        .map(([name, ns]) => [name, Number(ns)]),
    );
    const svc = '@svc/runtime major(title, description)';
    const svcError = '@svc/runtime major(title, new Error())';
    return {
      [`runtime: ${svc}, ns per call`]: median[svc],
      [`runtime: ${svc}, times array.push of a prebuilt object`]:
        median[svc] / median['floor: array.push of a prebuilt object'],
      [`runtime: ${svcError}, ns per call`]: median[svcError],
      [`runtime: ${svcError}, times new Error()`]: median[svcError] / median['floor: new Error()'],
    };
  },
  async delivery(tree) {
    const out = await run(tree, ['bench/runtime/delivery.mjs'], { ROUNDS: '3', REPORTS: '2000' });
    const figures = {};
    for (const line of out.split('\n').filter((l) => l.startsWith('| @svc/runtime'))) {
      const row = cells(line);
      if (row[0].includes(' / ')) {
        figures[`runtime delivery: ${row[0]}, client CPU per report (times)`] = lead(row[2]);
      } else {
        figures[`runtime delivery: ${row[0]}, client CPU µs per report`] = lead(row[3]);
      }
    }
    return figures;
  },
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x) => (Math.abs(x) >= 100 ? Math.round(x).toString() : x.toFixed(2));
const spread = (xs) => `${fmt(median(xs))} (${fmt(Math.min(...xs))}-${fmt(Math.max(...xs))})`;

const samples = { before: {}, after: {} };
const loadBefore = loadavg();
const started = new Date();
for (let round = 0; round < rounds; round++) {
  for (const [name, bench] of Object.entries(BENCHES)) {
    if (!only.has(name)) continue;
    const order = round % 2 ? ['after', 'before'] : ['before', 'after'];
    for (const which of order) {
      const figures = await bench(which === 'before' ? BEFORE : AFTER);
      console.error(`round ${round + 1} ${name} ${which}: ${JSON.stringify(figures)}`);
      for (const [figure, value] of Object.entries(figures)) {
        samples[which][figure] ??= [];
        samples[which][figure].push(value);
      }
    }
  }
}
const loadAfter = loadavg();

const rows = Object.keys(samples.after)
  .filter((figure) => samples.before[figure]?.length === samples.after[figure].length)
  .map((figure) => {
    const b = samples.before[figure];
    const a = samples.after[figure];
    return `| ${figure} | ${spread(b)} | ${spread(a)} | ${spread(a.map((x, i) => x / b[i]))} |`;
  });
console.log(`Command: \`node bench/versions.mjs --before <worktree of the older commit> --rounds ${rounds} --only ${values.only}${values['before-dist'] ? ' --before-dist <build> --after-dist <build>' : ''}\`
(both trees built). ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, shared with other jobs;
load average (1, 5, 15 min) before ${loadBefore.map((x) => x.toFixed(2)).join(', ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(', ')};
${started.toISOString()} to ${new Date().toISOString()}. Each figure: median over the rounds (lowest-highest); the
last column divides after by before round by round (each round ran both builds back to back, the order
flipped every other round).

| Figure | before | after | after / before, per round |
|---|---|---|---|
${rows.join('\n')}
`);
