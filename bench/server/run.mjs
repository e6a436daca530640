// Server throughput bench: autocannon on 127.0.0.1 against @svc/server and, in the same run, a
// bare node:http ceiling. Usage: node bench/server/run.mjs [--duration 10] [--connections 20]
// Writes bench/server/RESULTS.md. Build the server first (npm run build -w @svc/server).
import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import nacl from 'tweetnacl';
import sealedbox from 'tweetnacl-sealedbox-js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
  },
});
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

const report = (title) =>
  JSON.stringify({
    severity: 'major',
    priority: 'medium',
    title,
    description: 'TypeError: x is undefined\n    at f (src/app.ts:10:5)',
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

async function load(name, url, { headers, body, newTitles }) {
  let n = 0;
  const opts = {
    url: `${url}/api/v1/tasks`,
    method: 'POST',
    connections,
    duration,
    headers: { 'content-type': 'application/json', 'x-svc-hide-response': 'true', ...headers },
    body,
  };
  if (newTitles)
    opts.requests = [
      { setupRequest: (req) => ({ ...req, body: report(`New card ${process.pid}-${n++}`) }) },
    ];
  const r = await autocannon(opts);
  const bad = r.non2xx + r.errors + r.timeouts;
  const row = {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    bad,
  };
  console.log(JSON.stringify(row));
  return row;
}

const ceiling = await start('ceiling.mjs');
const svc = await start('service.mjs');
const s = svc.info;
const dedup = report('Deduplicated card');
const envelope = seal(dedup, s.publicKey);
const bearer = { authorization: `Bearer ${s.apiKey}` };
void nacl;
const rows = [];
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
    url: `${s.url}/api/v1/tasks`,
    method: 'POST',
    body: dedup,
    headers: { ...bearer, 'content-type': 'application/json' },
    duration: 2,
    connections,
  });
  rows.push(await load('ceiling: bare node:http, same JSON', ceiling.info.url, { body: dedup }));
  rows.push(await load('bearer, deduplicated', s.url, { headers: bearer, body: dedup }));
  rows.push(await load('bearer, new cards', s.url, { headers: bearer, newTitles: true }));
  rows.push(
    await load('signed, deduplicated', s.url, {
      headers: sign(dedup, s.signingSecret, s.keyId),
      body: dedup,
    }),
  );
  rows.push(
    await load('bearer + encrypted, deduplicated', s.url, { headers: bearer, body: envelope }),
  );
  rows.push(
    await load('signed + encrypted, deduplicated', s.url, {
      headers: sign(envelope, s.signingSecret, s.keyId),
      body: envelope,
    }),
  );
} finally {
  ceiling.child.kill();
  svc.child.kill();
}

const top = rows[0].rps;
const table = rows.map(
  (r) =>
    `| ${r.name} | ${r.rps} | ${Math.round((r.rps / top) * 100)} % | ${r.p50} | ${r.p99} | ${r.total} | ${r.bad} |`,
);
const md = `## Server ingestion (bench/server)

Command: \`node bench/server/run.mjs --duration ${duration} --connections ${connections}\` (after \`npm run build -w @svc/server\`).
Machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, shared with other jobs, so
absolute figures are noisy; the ratio to the ceiling measured in the same run is the figure that matters.
Service and ceiling each run in their own process; autocannon runs in a third. Durability: ${process.env.SVC_DURABILITY ?? 'process'}
(WAL, synchronous=NORMAL). Every request is a real report with \`X-Svc-Hide-Response: true\`; "bad" counts non-2xx, errors and timeouts.

| Case | req/s | of ceiling | p50 ms | p99 ms | requests | bad |
|---|---|---|---|---|---|---|
${table.join('\n')}

Target: deduplicated bearer reports >= 50 % of the ceiling: ${rows[1].rps >= top / 2 ? 'met' : 'NOT met'} (${Math.round((rows[1].rps / top) * 100)} %).
Measured ${new Date().toISOString()}.
`;
writeFileSync(here('RESULTS.md'), md);
console.log(md);
