import sodium from 'libsodium-wrappers';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { report, type Service, spawnService } from '../helpers.ts';

// Black-box: an envelope without key_id during a key rotation (contract 10.1, and beyond it: the
// project's other active keys are tried after the most recent one, at most 3 more).
let svc: Service | undefined;
beforeAll(() => sodium.ready);
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

const seal = (plaintext: string, publicKeyB64: string) =>
  Buffer.from(
    sodium.crypto_box_seal(Buffer.from(plaintext, 'utf8'), Buffer.from(publicKeyB64, 'base64')),
  ).toString('base64');
const envelope = (ciphertext: string) =>
  JSON.stringify({ encrypted: { v: 1, alg: 'x25519-sealedbox', ciphertext } });

async function newEncryptionKey(service: Service, name: string) {
  const r = await service.cli(
    'key',
    'create',
    '--project',
    String(service.projectId),
    '--type',
    'encryption',
    '--name',
    name,
    '--json',
  );
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { id: number; keyId: string; publicKey: string };
}

describe('key rotation without key_id', () => {
  it('a client sealing to the older of two active keys is accepted', async () => {
    svc = await spawnService();
    const newer = await newEncryptionKey(svc, 'rotated');
    const toOld = await svc.post(
      envelope(seal(report({ title: 'Sealed to the old key' }), svc.keys.encryptionPublicKey)),
      svc.bearer(),
    );
    expect(toOld.status).toBe(201);
    const toNew = await svc.post(
      envelope(seal(report({ title: 'Sealed to the new key' }), newer.publicKey)),
      svc.bearer(),
    );
    expect(toNew.status).toBe(201);
    expect((await svc.cards()).map((c) => c.title).sort()).toEqual([
      'Sealed to the new key',
      'Sealed to the old key',
    ]);
    // Once the old key is revoked, its envelopes are refused.
    expect((await svc.cli('key', 'revoke', String(svc.keys.encryptionId))).code).toBe(0);
    const revoked = await svc.post(
      envelope(seal(report({ title: 'Too late' }), svc.keys.encryptionPublicKey)),
      svc.bearer(),
    );
    expect([revoked.status, await revoked.json()]).toEqual([
      422,
      { message: 'Could not decrypt the request payload.' },
    ]);
  });

  it('tries the most recent key and at most 3 more: the fifth most recent gives 422', async () => {
    svc = await spawnService();
    const keys = [];
    for (let i = 0; i < 4; i++) keys.push(await newEncryptionKey(svc, `k${i}`));
    // Five active keys; the fixture's own is the oldest, keys[0] the fourth most recent.
    const fourth = await svc.post(
      envelope(seal(report({ title: 'Fourth' }), keys[0]!.publicKey)),
      svc.bearer(),
    );
    expect(fourth.status).toBe(201);
    const fifth = await svc.post(
      envelope(seal(report({ title: 'Fifth' }), svc.keys.encryptionPublicKey)),
      svc.bearer(),
    );
    expect(fifth.status).toBe(422);
  });
});
