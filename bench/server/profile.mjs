import { fileURLToPath } from 'node:url';
// Starts bench/server/service.mjs under --cpu-prof, loads one case with autocannon, stops it.
import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import autocannon from 'autocannon';
import sealedbox from 'tweetnacl-sealedbox-js';
const [caseName, dir, seconds = '6'] = process.argv.slice(2);
const child = spawn(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-dir=${dir}`, fileURLToPath(new URL('./service.mjs', import.meta.url))],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const info = await new Promise((resolve) => {
  let out = '';
  child.stdout.on('data', (c) => {
    out += c;
    const m = /READY (.+)\n/.exec(out);
    if (m) resolve(JSON.parse(m[1]));
  });
});
const report = (title, where = 'f (src/app.ts:10:5)') =>
  JSON.stringify({
    severity: 'major',
    priority: 'medium',
    title,
    description: `TypeError: x is undefined\n    at ${where}`,
    tags: ['env:bench'],
  });
const sign = (body) => {
  const ts = String(Math.floor(Date.now() / 1000));
  const hash = createHash('sha256').update(body).digest('hex');
  return {
    'x-svc-key-id': info.keyId,
    'x-svc-timestamp': ts,
    'x-svc-signature': createHmac('sha256', info.signingSecret)
      .update(`${ts}.POST./api/v1/tasks.${hash}`)
      .digest('hex'),
  };
};
const dedup = report('Deduplicated card');
const envelope = JSON.stringify({
  encrypted: {
    v: 1,
    alg: 'x25519-sealedbox',
    ciphertext: Buffer.from(
      sealedbox.seal(Buffer.from(dedup), Buffer.from(info.publicKey, 'base64')),
    ).toString('base64'),
  },
});
const bearer = { authorization: `Bearer ${info.apiKey}` };
let n = 0;
const cases = {
  dedup: { headers: bearer, body: dedup },
  newcards: {
    headers: bearer,
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: report(`New ${n}`, `g${n++} (src/app.ts:10:5)`) }),
      },
    ],
  },
  variants: {
    headers: bearer,
    requests: [{ setupRequest: (req) => ({ ...req, body: report(`Variant ${n++}`) }) }],
  },
  signed: { headers: sign(dedup), body: dedup },
  encrypted: { headers: bearer, body: envelope },
};
const c = cases[caseName];
const r = await autocannon({
  url: `${info.url}/api/v1/tasks`,
  method: 'POST',
  connections: 20,
  duration: Number(seconds),
  ...c,
  headers: { 'content-type': 'application/json', 'x-svc-hide-response': 'true', ...c.headers },
});
console.log(caseName, 'rps', r.requests.average, 'non2xx', r.non2xx, 'errors', r.errors);
child.kill('SIGINT');
await new Promise((res) => child.on('exit', res));
