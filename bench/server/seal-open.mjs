// What one encrypted report costs before the service does anything else: opening its sealed box
// (sodium-native `crypto_box_seal_open`, as the service does) beside the X25519 key agreement alone
// (node:crypto `diffieHellman`, the floor of any sealed-box open), interleaved, CPU per call.
// Usage: node bench/server/seal-open.mjs [--calls 5000] [--rounds 5]
import { diffieHellman, generateKeyPairSync } from 'node:crypto';
import { parseArgs } from 'node:util';
import sodium from 'sodium-native';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '5' } },
});
const calls = Number(values.calls);
const publicKey = Buffer.alloc(sodium.crypto_box_PUBLICKEYBYTES);
const secretKey = Buffer.alloc(sodium.crypto_box_SECRETKEYBYTES);
sodium.crypto_box_keypair(publicKey, secretKey);
const report = Buffer.from(
  JSON.stringify({
    severity: 'major',
    priority: 'medium',
    title: 'Deduplicated card',
    description: 'TypeError: x is undefined\n    at f (src/app.ts:10:5)',
    tags: ['env:bench'],
  }),
);
const sealed = Buffer.alloc(report.length + sodium.crypto_box_SEALBYTES);
sodium.crypto_box_seal(sealed, report, publicKey);
const opened = Buffer.alloc(report.length);
const ours = generateKeyPairSync('x25519');
const theirs = generateKeyPairSync('x25519');

const cases = {
  'sodium-native crypto_box_seal_open': () => {
    if (!sodium.crypto_box_seal_open(opened, sealed, publicKey, secretKey)) throw new Error('open');
  },
  'floor: node:crypto X25519 key agreement alone': () =>
    diffieHellman({ privateKey: ours.privateKey, publicKey: theirs.publicKey }),
};
const samples = new Map(Object.keys(cases).map((name) => [name, []]));
for (const run of Object.values(cases)) for (let i = 0; i < 500; i++) run(); // warm-up
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [name, run] of Object.entries(cases)) {
    const before = process.cpuUsage();
    for (let i = 0; i < calls; i++) run();
    const used = process.cpuUsage(before);
    samples.get(name).push((used.user + used.system) / calls);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, xs] of samples) {
  const spread = `${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}`;
  console.log(`| ${name} | ${median(xs).toFixed(1)} | ${spread} |`);
}
