import { createClient, SERVICE_URL } from '@svc/runtime';
import type { Admin } from '../admin.ts';
import type { AdminTokens } from '../board/tokens.ts';
import { startServer } from '../server.ts';
import type { Flags } from './args.ts';
import { cardsTable } from './format.ts';
import { serveOptions } from './serve.ts';

const DEMO_ACCOUNT = 'Demo account';

/** First run: the demo account, project and its browser and encryption keys (printed once). */
async function demoProject(admin: Admin) {
  const existing = (await admin.listAccounts()).find((a) => a.name === DEMO_ACCOUNT);
  if (existing) {
    const project = (await admin.listProjects(existing.id))[0]!;
    const enc = (await admin.listKeys(project.id)).find(
      (k) => k.kind === 'encryption' && !k.revokedAt,
    );
    console.log(
      `Demo account #${existing.id} and project #${project.id} already exist (keys were printed on the first run).`,
    );
    return { project, encryptionKeyId: enc?.publicId ?? undefined, first: false };
  }
  const account = await admin.createAccount({
    name: DEMO_ACCOUNT,
    plan: 'team',
    members: [{ email: 'owner@demo.test', role: 'owner' }],
  });
  const project = await admin.createProject({ accountId: account.id, name: 'Demo project' });
  const pub = await admin.createPublishableKey({ projectId: project.id, name: 'demo-browser' });
  const enc = await admin.createEncryptionKey({ projectId: project.id, name: 'demo-encryption' });
  console.log(`Created demo account #${account.id} and project #${project.id}. Keys (shown once):
  apiKey (publishable):  ${pub.token}
  encryptionKeyId:       ${enc.keyId}
  encryptionPublicKey:   ${enc.publicKey}`);
  return { project, encryptionKeyId: enc.keyId, encryptionPublicKey: enc.publicKey, first: true };
}

/**
 * A fresh secret key per run for the demo's signed reports: the service keeps only hashes, so a
 * previous run's secret cannot be recovered; earlier demo-run keys are revoked.
 */
async function demoSecretKey(admin: Admin, projectId: number) {
  for (const k of await admin.listKeys(projectId)) {
    if (k.name === 'demo-run' && !k.revokedAt) await admin.revokeKey(k.id);
  }
  return admin.createSecretKey({ projectId, name: 'demo-run' });
}

/** A fresh admin token per run for the board (only its hash is kept); earlier demo ones are revoked. */
async function demoAdminToken(tokens: AdminTokens): Promise<string> {
  for (const t of await tokens.list()) {
    if (t.name === 'demo-board' && !t.revokedAt) await tokens.revoke(t.id);
  }
  return (await tokens.create({ name: 'demo-board' })).token;
}

/** `svc-server demo`: serve on 127.0.0.1:8787, send real signed+encrypted reports, print the cards. */
export async function runDemo(flags: Flags): Promise<void> {
  const opts = serveOptions(flags);
  const server = await startServer({ ...opts, board: true });
  console.log(`svc-server listening on ${server.url} (data: ${opts.dataDir})`);
  const { admin } = server;
  const boardToken = await demoAdminToken(server.board!.adminTokens);
  const demo = await demoProject(admin);
  const secret = await demoSecretKey(admin, demo.project.id);
  let encryptionPublicKey = demo.encryptionPublicKey;
  if (!encryptionPublicKey) {
    // The public half is not secret, but it is only printed at creation: make a new one per run.
    const enc = await admin.createEncryptionKey({
      projectId: demo.project.id,
      name: 'demo-encryption',
    });
    encryptionPublicKey = enc.publicKey;
    demo.encryptionKeyId = enc.keyId;
  }
  console.log(
    `Signed with a fresh secret key ${secret.keyId}; every report encrypted with ${demo.encryptionKeyId}.`,
  );

  // The SDK has no base-URL option: its fetch seam points it at this local service.
  const local: typeof fetch = (input, init) =>
    fetch(
      String(input instanceof Request ? input.url : input).replace(SERVICE_URL, server.url),
      init,
    );
  const client = createClient(
    {
      keyId: secret.keyId,
      signingSecret: secret.signingSecret,
      encryptionPublicKey,
      encryptionKeyId: demo.encryptionKeyId,
      environment: 'demo',
      release: '1.0.0',
      lineNumbers: true,
      hideApiResponse: true,
    },
    { fetch: local },
  );
  sendBurst(client);
  const result = await client.flush({ timeoutMs: 15_000 });
  console.log(`\nSent through @svc/runtime: ${JSON.stringify(result)}\n`);
  console.log(cardsTable(await admin.listCards(demo.project.id)));
  console.log(
    `\nBoard: ${server.board!.url} (sign in with this run's admin token, shown once):\n  ${boardToken}`,
  );
  console.log(
    `\nStill serving on ${server.url} (Ctrl-C to stop). Try: svc-server cards list --project ${demo.project.id}`,
  );
  const stop = () => {
    server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function chargeCard(amount: number): number {
  if (amount > 100)
    throw new TypeError(`Cannot read properties of undefined (reading 'token') for ${amount}`);
  return amount;
}

function sendBurst(client: ReturnType<typeof createClient>): void {
  for (const amount of [120, 250, 999]) {
    try {
      chargeCard(amount);
    } catch (err) {
      client.critical('Payment token missing', err, ['checkout']);
    }
  }
  for (let i = 0; i < 4; i++)
    client.major('Checkout total mismatch', `expected 100, got ${100 + (i % 2)}`);
  client.moderateHigh(
    'Inventory sync returned JSON error',
    '{"error":"stale","sku":"A-1"}',
    'sync, inventory',
  );
  client.moderateHigh('Inventory sync returned JSON error', '{"error":"stale","sku":"B-2"}');
  client.minorLow('Slow image load', 'hero.jpg took 4.2 s', ['perf']);
  client.minorLow('Slow image load', 'hero.jpg took 4.2 s', ['perf']);
}
