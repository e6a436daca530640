// The service under test: the built @svc/server in its own process, limits raised so the bench
// measures ingestion rather than 429s, seeded with one project and its keys. SVC_SERVER_DIST may
// name another build's index.js (memory.mjs compares two builds); SVC_DATA_DIR a data dir. With
// DATABASE_URL it runs on PostgreSQL; SVC_BENCH_NO_SEED=1 (a second instance on the same
// database) prints only the url; SVC_BENCH_SECOND=1 seeds a second project and prints its
// publishable key as `secondApiKey` (sourcemaps.mjs: one project with maps, one without).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const { startServer } = await import(
  process.env.SVC_SERVER_DIST
    ? pathToFileURL(resolve(process.env.SVC_SERVER_DIST)).href
    : '../../server/dist/index.js'
);

const big = { burstPerMinute: 1e9, dailyEvents: 1e9 };
const server = await startServer({
  port: 0,
  dataDir: process.env.SVC_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'svc-bench-')),
  durability: process.env.SVC_DURABILITY ?? 'process',
  plans: { team: big },
});
if (process.env.SVC_BENCH_NO_SEED) {
  console.log(`READY ${JSON.stringify({ url: server.url })}`);
} else {
  await seed();
}
process.on('SIGINT', () => server.close().then(() => process.exit(0)));

async function seed() {
  const { admin } = server;
  const account = await admin.createAccount({ name: 'Bench', plan: 'team' });
  const { id: projectId } = await admin.createProject({ accountId: account.id, name: 'Bench' });
  const pub = await admin.createPublishableKey({ projectId, name: 'b' });
  const sec = await admin.createSecretKey({ projectId, name: 's' });
  const enc = await admin.createEncryptionKey({ projectId, name: 'e' });
  const second = process.env.SVC_BENCH_SECOND
    ? await admin.createProject({ accountId: account.id, name: 'Bench 2' })
    : undefined;
  const secondApiKey = second
    ? (await admin.createPublishableKey({ projectId: second.id, name: 'b2' })).token
    : undefined;
  console.log(
    `READY ${JSON.stringify({ url: server.url, apiKey: pub.token, keyId: sec.keyId, signingSecret: sec.signingSecret, publicKey: enc.publicKey, encKeyId: enc.keyId, secondApiKey })}`,
  );
}
