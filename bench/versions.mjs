// Two builds of the repository side by side, interleaved round by round: the service and SDK rows
// of `bench/server/run.mjs`, `bench/server/stores.mjs`, `bench/runtime/sync-cost.mjs` and
// `bench/runtime/delivery.mjs`, each run once per round for the build before (a worktree of an
// older commit, built) and the build after (this one), the order flipped every other round. The
// server benches are this tree's scripts in both cases, pointed at the other build's service with
// SVC_SERVER_DIST; the runtime benches run in each tree (they import that tree's @svc/runtime).
// Usage (both trees built: `npm run build -w runtime -w server`):
//   node bench/versions.mjs --before ../before-worktree [--rounds 5] [--only server,stores,sync,delivery]
//     [--before-dist <index.js>] [--after-dist <index.js>]   (the server benches' builds, if not the trees')
//   node bench/versions.mjs --log <its stderr, saved>   (the table of the rounds a run logged, finished or cut short)
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
    // The figures a run logged (its stderr), for a table of the rounds it finished.
    log: { type: 'string' },
  },
});
if (!values.before && !values.log) {
  throw new Error('--before <path of the older worktree, built> is required');
}
const AFTER = fileURLToPath(new URL('..', import.meta.url));
const BEFORE = resolve(values.before ?? '.');
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

// samples[build][figure][round - 1]: a round a run did not finish (a log cut short) stays empty.
const samples = { before: {}, after: {} };
const record = (which, figures, round) => {
  for (const [figure, value] of Object.entries(figures)) {
    samples[which][figure] ??= [];
    samples[which][figure][round - 1] = value;
  }
};
const loadBefore = loadavg();
const started = new Date();
if (values.log) {
  for (const line of readFileSync(values.log, 'utf8').split('\n')) {
    const m = /^round (\d+) \w+ (before|after): (\{.*\})$/.exec(line);
    if (m) record(m[2], JSON.parse(m[3]), Number(m[1]));
  }
}
// Each round's start and load go to the log too, so a table made from a log (--log) can say them.
const roundsLogged = [];
const noteRound = (round, at, load) => roundsLogged.push({ round, at, load });
if (values.log) {
  for (const line of readFileSync(values.log, 'utf8').split('\n')) {
    const m = /^round (\d+) starts (\S+), load ([\d.]+)$/.exec(line);
    if (m) noteRound(Number(m[1]), m[2], Number(m[3]));
  }
}
for (let round = 1; round <= (values.log ? 0 : rounds); round++) {
  const [at, load] = [new Date().toISOString(), loadavg()[0]];
  console.error(`round ${round} starts ${at}, load ${load.toFixed(2)}`);
  noteRound(round, at, load);
  for (const [name, bench] of Object.entries(BENCHES)) {
    if (!only.has(name)) continue;
    const order = round % 2 ? ['before', 'after'] : ['after', 'before'];
    for (const which of order) {
      const figures = await bench(which === 'before' ? BEFORE : AFTER);
      console.error(`round ${round} ${name} ${which}: ${JSON.stringify(figures)}`);
      record(which, figures, round);
    }
  }
}
const loadAfter = loadavg();

// Only the rounds that ran both builds count, so each ratio compares one round's pair.
const rows = Object.keys(samples.after)
  .map((figure) => {
    const paired = [...samples.after[figure].keys()].filter(
      (i) => samples.after[figure][i] !== undefined && samples.before[figure]?.[i] !== undefined,
    );
    return { figure, paired };
  })
  .filter(({ paired }) => paired.length > 0)
  .map(({ figure, paired }) => {
    const b = paired.map((i) => samples.before[figure][i]);
    const a = paired.map((i) => samples.after[figure][i]);
    return `| ${figure} | ${spread(b)} | ${spread(a)} | ${spread(a.map((x, i) => x / b[i]))} |`;
  });
const pairedCounts = Object.keys(samples.after).map(
  (f) =>
    samples.after[f].filter((x, i) => x !== undefined && samples.before[f]?.[i] !== undefined)
      .length,
);
const pairedRounds =
  Math.min(...pairedCounts) === Math.max(...pairedCounts)
    ? `${pairedCounts[0] ?? 0}`
    : `${Math.min(...pairedCounts)} to ${Math.max(...pairedCounts)}`;
const loads = roundsLogged.map((r) => r.load);
const when = values.log
  ? `the run logged in ${values.log}, ${pairedRounds} rounds with both builds (by figure); ${
      roundsLogged.length
        ? `rounds started ${roundsLogged[0].at} to ${roundsLogged.at(-1).at}, load average (1 min) at their starts ${fmt(Math.min(...loads))}-${fmt(Math.max(...loads))}`
        : 'its times and load were not logged'
    }`
  : `load average (1, 5, 15 min) before ${loadBefore.map((x) => x.toFixed(2)).join(', ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(', ')};
${started.toISOString()} to ${new Date().toISOString()}`;
console.log(`Command: \`node bench/versions.mjs --before <worktree of the older commit> --rounds ${rounds} --only ${values.only}${values['before-dist'] ? ' --before-dist <build> --after-dist <build>' : ''}\`
(both trees built). ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, shared with other jobs;
${when}. Each figure: median over the rounds (lowest-highest); the last column divides after by before
round by round (each round ran both builds back to back, the order flipped every other round).

| Figure | before | after | after / before, per round |
|---|---|---|---|
${rows.join('\n')}
`);
