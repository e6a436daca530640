// Memory bench: sends distinct reports with large descriptions to the built service and records
// its RSS as it goes; flat is the goal (the ingest's read caches are bounded by bytes). With
// --before <dist/index.js of another build>, that build runs the same load first, as the peer.
// Usage: node bench/server/memory.mjs [--reports 50000] [--description 65000] [--concurrency 16]
//   [--samples 10] [--before path/to/dist/index.js]
// Writes its section of bench/server/RESULTS.md. Build the server first (npm run build -w @svc/server).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    reports: { type: 'string', default: '50000' },
    description: { type: 'string', default: '65000' },
    concurrency: { type: 'string', default: '16' },
    samples: { type: 'string', default: '10' },
    before: { type: 'string' },
  },
});
const total = Number(values.reports);
const descriptionLength = Number(values.description);
const concurrency = Number(values.concurrency);
const step = Math.ceil(total / Number(values.samples));
const here = (f) => fileURLToPath(new URL(f, import.meta.url));

const rssMiB = (pid) => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
  } catch {
    return Number.NaN; // the process is gone
  }
};

function start(dist, dataDir) {
  const env = { ...process.env, SVC_DATA_DIR: dataDir };
  if (dist) env.SVC_SERVER_DIST = dist;
  const child = spawn(process.execPath, [here('service.mjs')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr = (stderr + c).slice(-2000);
  });
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /READY (.+)\n/.exec(out);
      if (m) resolve({ child, info: JSON.parse(m[1]), exited, stderr: () => stderr });
    });
    child.on('exit', (code) => reject(new Error(`service exited ${code}: ${stderr}`)));
  });
}

const filler = 'at handler (src/routes/orders.ts:41:7) '.repeat(Math.ceil(descriptionLength / 40));
const body = (i) =>
  JSON.stringify({
    severity: 'major',
    priority: 'medium',
    title: `Distinct failure ${i}`,
    description: `Failure ${i}\n${filler}`.slice(0, descriptionLength),
    tags: ['env:bench', `n:${i % 100}`],
  });

async function run(name, dist) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-memory-'));
  const svc = await start(dist, dataDir);
  let gone;
  svc.exited.then((e) => {
    gone = e;
  });
  const pid = svc.child.pid;
  const samples = [{ sent: 0, rss: rssMiB(pid) }];
  let peak = samples[0].rss;
  const timer = setInterval(() => {
    const rss = rssMiB(pid);
    if (rss > peak) peak = rss;
  }, 250);
  let next = 0;
  let done = 0;
  let bad = 0;
  const t0 = performance.now();
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${svc.info.apiKey}`,
    'x-svc-hide-response': 'true',
  };
  const worker = async () => {
    while (!gone && next < total) {
      const i = next++;
      try {
        const r = await fetch(`${svc.info.url}/api/v1/tasks`, {
          method: 'POST',
          headers,
          body: body(i),
        });
        await r.arrayBuffer();
        if (r.status !== 201) bad += 1;
      } catch {
        bad += 1;
      }
      done += 1;
      if (done % step === 0 || done === total) {
        const rss = rssMiB(pid);
        samples.push({ sent: done, rss });
        console.log(`${name}: ${done} reports, RSS ${rss.toFixed(0)} MiB`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  const crashed = gone ? `exited (${gone.signal ?? gone.code}) after ${done} reports` : null;
  if (crashed) console.log(`${name}: ${crashed}\n${svc.stderr().slice(-400)}`);
  svc.child.kill('SIGINT');
  await svc.exited;
  rmSync(dataDir, { recursive: true, force: true });
  return { name, samples, peak, seconds, done, bad, crashed };
}

const results = [];
if (values.before) results.push(await run('before (entry-count caches)', values.before));
results.push(await run('this build (byte-bounded caches)', undefined));

const cols = results[results.length - 1].samples.map((s) => s.sent);
const cell = (r, sent) => {
  const s = r.samples.find((x) => x.sent === sent);
  return s && Number.isFinite(s.rss) ? String(Math.round(s.rss)) : '-';
};
const table = [
  `| Build | ${cols.map((c) => `${c / 1000}k`).join(' | ')} | peak | reports/s | bad |`,
  `| --- | ${cols.map(() => '---').join(' | ')} | --- | --- | --- |`,
  ...results.map(
    (r) =>
      `| ${r.name} | ${cols.map((c) => cell(r, c)).join(' | ')} | ${Math.round(r.peak)} | ${Math.round(r.done / r.seconds)} | ${r.bad} |`,
  ),
];
const argv = process.argv.slice(2).join(' ');
const md = `<!-- memory: written by bench/server/memory.mjs; the other benches keep this section -->

## Memory under distinct large reports (bench/server/memory.mjs)

Command: \`node bench/server/memory.mjs ${argv}\` (after \`npm run build -w @svc/server\`).
Machine: 2 CPUs (AMD EPYC), Node ${process.version}, shared with other jobs.
${total} distinct reports (new cards, none repeats), each with a ${descriptionLength}-character description,
${concurrency} in flight, to the service in its own process (limits raised); its RSS in MiB after each
${step} reports, and the peak sampled every 250 ms.${values.before ? ' The peer is the build before this change, run with the same load first.' : ''}

${table.join('\n')}

The ingest's read caches are budgeted at about 27 MiB in all (card rows without descriptions 16 MiB,
titles 4, variant ids 4, counters 3 x 1), so RSS levels off once they are full; the rest is Node,
SQLite's page cache and allocator slack. The build before kept whole card rows (descriptions
included) for up to 100,000 entries.
${results
  .filter((r) => r.crashed)
  .map((r) => `\n${r.name}: ${r.crashed}.`)
  .join('')}
Measured ${new Date().toISOString()}.
`;
const file = here('RESULTS.md');
const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
const mark = previous.indexOf('<!-- memory');
// The stores section (bench/server/stores.mjs) follows this one; keep it.
const stores = previous.indexOf('<!-- stores');
writeFileSync(
  file,
  `${(mark >= 0 ? previous.slice(0, mark) : previous).trimEnd()}\n\n${md}${
    stores > mark && mark >= 0 ? `\n${previous.slice(stores)}` : ''
  }`,
);
console.log(md);
