#!/usr/bin/env node
// `npm start`: the reference service on 127.0.0.1:8787, a demo project, real signed and encrypted
// reports through @svc/runtime (pointed at this service with `serviceUrl`), the cards, and how to
// go on with `svc-server`. Keeps serving until Ctrl-C.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient } from '@svc/runtime';
import { startServer } from '@svc/server';
import { demoAdminToken, demoProject, demoSecretKey } from './project.js';
import { printCards, svcServer } from './cli.js';
import { sendBurst } from './reports.js';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: process.env.PORT ?? '8787' },
    'data-dir': { type: 'string' },
  },
});
const dataDir = resolve(values['data-dir'] ?? process.env.SERVICE_DATA_DIR ?? './.data');
const server = await startServer({
  host: values.host,
  port: Number(values.port),
  dataDir,
  board: true,
});
console.log(`svc-server listening on ${server.url} (data: ${dataDir})`);
const board = /** @type {NonNullable<typeof server.board>} */ (server.board); // on: board: true
const boardToken = await demoAdminToken(board.adminTokens);

const demo = await demoProject(server.admin);
const secret = await demoSecretKey(server.admin, demo.projectId);
console.log(
  `Signed with a fresh secret key ${secret.keyId}; every report encrypted with ${demo.encryptionKeyId}.`,
);

const client = createClient(
  {
    keyId: secret.keyId,
    signingSecret: secret.signingSecret,
    encryptionPublicKey: demo.encryptionPublicKey,
    encryptionKeyId: demo.encryptionKeyId,
    environment: 'demo',
    release: '1.0.0',
    lineNumbers: true,
  },
  // The service address: what SERVICE_URL sets for any Node app.
  { serviceUrl: server.url },
);
sendBurst(client);
const result = await client.flush({ timeoutMs: 15_000 });
console.log(`\nSent through @svc/runtime: ${JSON.stringify(result)}\n`);
await printCards(demo.projectId, dataDir);
console.log(
  `\nBoard: ${board.url} (sign in with this run's admin token, shown once):\n  ${boardToken}`,
);

const dirFlag = values['data-dir'] ? ` --data-dir ${dataDir}` : '';
console.log(`
Your own keys for this project (values are shown once):
  ${svcServer} key create --project ${demo.projectId} --type secret --name my-server${dirFlag}
  ${svcServer} key create --project ${demo.projectId} --type publishable --name my-browser${dirFlag}
Then point an app at this service: SERVICE_URL=${server.url} SERVICE_KEY_ID=svck_... SERVICE_SIGNING_SECRET=svc_sec_... node app.js
Cards: ${svcServer} cards list --project ${demo.projectId}${dirFlag}

Still serving on ${server.url} (Ctrl-C to stop).`);

const stop = () => server.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
