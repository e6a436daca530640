// The demo account, project and keys: created on the first run (key values printed once), found
// again on later runs.
const DEMO_ACCOUNT = 'Demo account';

/** @param {import('@svc/server').Admin} admin */
export async function demoProject(admin) {
  const existing = (await admin.listAccounts()).find((a) => a.name === DEMO_ACCOUNT);
  if (existing) {
    const project = (await admin.listProjects(existing.id))[0];
    console.log(
      `Demo account #${existing.id} and project #${project.id} already exist (keys were printed on the first run).`,
    );
    // The public half of an encryption key is printed only at creation: a new one per run.
    const enc = await admin.createEncryptionKey({ projectId: project.id, name: 'demo-encryption' });
    return {
      projectId: project.id,
      encryptionKeyId: enc.keyId,
      encryptionPublicKey: enc.publicKey,
    };
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
  return { projectId: project.id, encryptionKeyId: enc.keyId, encryptionPublicKey: enc.publicKey };
}

/**
 * A fresh secret key per run for the demo's signed reports: the service keeps only hashes, so a
 * previous run's secret cannot be recovered; earlier demo-run keys are revoked.
 * @param {import('@svc/server').Admin} admin
 * @param {number} projectId
 */
export async function demoSecretKey(admin, projectId) {
  for (const k of await admin.listKeys(projectId)) {
    if (k.name === 'demo-run' && !k.revokedAt) await admin.revokeKey(k.id);
  }
  return admin.createSecretKey({ projectId, name: 'demo-run' });
}

/**
 * A fresh admin token per run for the board (only its hash is kept); earlier demo ones are revoked.
 * @param {import('@svc/server').AdminTokens} tokens
 */
export async function demoAdminToken(tokens) {
  for (const t of await tokens.list()) {
    if (t.name === 'demo-board' && !t.revokedAt) await tokens.revoke(t.id);
  }
  return (await tokens.create({ name: 'demo-board' })).token;
}
