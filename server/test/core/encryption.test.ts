import { readFileSync } from 'node:fs';
import sodium from 'libsodium-wrappers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, type Service, spawnService } from '../helpers.ts';

// Black-box: payload encryption (section 10), sealed independently with libsodium.
let svc: Service;
beforeAll(async () => {
  await sodium.ready;
  svc = await spawnService();
});
afterAll(() => svc?.close());

const seal = (plaintext: string, publicKeyB64: string) =>
  Buffer.from(
    sodium.crypto_box_seal(Buffer.from(plaintext, 'utf8'), Buffer.from(publicKeyB64, 'base64')),
  ).toString('base64');
const envelope = (ciphertext: string, keyId?: string) =>
  JSON.stringify({
    encrypted: { v: 1, alg: 'x25519-sealedbox', ...(keyId ? { key_id: keyId } : {}), ciphertext },
  });
const DECRYPT = { message: 'Could not decrypt the request payload.' };

describe('encrypted reports', () => {
  it('decrypts, then dedupes and stores like plaintext (bearer, key id given)', async () => {
    const plain = report({ title: 'Sealed 1', description: 'secret detail ü' });
    const r1 = await svc.post(
      envelope(seal(plain, svc.keys.encryptionPublicKey), svc.keys.encryptionKeyId),
      svc.bearer(),
    );
    expect(r1.status).toBe(201);
    expect((await r1.json()).data).toMatchObject({
      title: 'Sealed 1',
      description: 'secret detail ü',
    });
    const r2 = await svc.post(plain, svc.bearer());
    expect([r2.status, (await r2.json()).deduplicated]).toEqual([200, true]);
  });

  it('signed: the envelope bytes are what is signed; key_id absent uses the newest key', async () => {
    const body = envelope(seal(report({ title: 'Sealed signed' }), svc.keys.encryptionPublicKey));
    const r = await svc.post(body, svc.signed(body));
    expect(r.status).toBe(201);
  });

  it('422 for tampered ciphertext, a wrong key, an unknown key id, bad base64, bad version', async () => {
    const ct = seal(report({ title: 'Tamper' }), svc.keys.encryptionPublicKey);
    const bytes = Buffer.from(ct, 'base64');
    bytes[bytes.length - 1]! ^= 1;
    const other = sodium.crypto_box_keypair();
    for (const body of [
      envelope(bytes.toString('base64')),
      envelope(seal(report({ title: 'x' }), Buffer.from(other.publicKey).toString('base64'))),
      envelope(ct, 'svcek_unknown'),
      envelope('not*base64'),
      JSON.stringify({ encrypted: { v: 2, alg: 'x25519-sealedbox', ciphertext: ct } }),
      envelope(seal('not json', svc.keys.encryptionPublicKey)),
    ]) {
      const r = await svc.post(body, svc.bearer());
      expect(r.status).toBe(422);
      expect(await r.json()).toEqual(DECRYPT);
    }
  });

  it('a decrypted body is validated like plaintext', async () => {
    const r = await svc.post(
      envelope(seal('{"severity":"nope"}', svc.keys.encryptionPublicKey)),
      svc.bearer(),
    );
    expect(r.status).toBe(422);
    expect((await r.json()).errors.severity).toHaveLength(1);
  });

  it('a body with `encrypted` but no ciphertext string is plaintext', async () => {
    const r = await svc.post(
      JSON.stringify({ severity: 'minor', title: 'Not sealed', encrypted: { ciphertext: 5 } }),
      svc.bearer(),
    );
    expect(r.status).toBe(201);
  });

  it('a revoked encryption key no longer decrypts', async () => {
    const other = await spawnService();
    try {
      const body = () =>
        envelope(seal(report({ title: `Rev ${Math.random()}` }), other.keys.encryptionPublicKey));
      expect((await other.post(body(), other.bearer())).status).toBe(201);
      expect((await other.cli('key', 'revoke', String(other.keys.encryptionId))).code).toBe(0);
      const r = await other.post(body(), other.bearer());
      expect([r.status, await r.json()]).toEqual([422, DECRYPT]);
    } finally {
      await other.close();
    }
  });
});

// The libsodium 1.0.18 vectors of spec/vectors, opened by the running service: the project's
// encryption key is imported from the vectors' recipient secret key.
const VECTORS = JSON.parse(
  readFileSync(new URL('../../../spec/vectors/sealed-box.json', import.meta.url), 'utf8'),
) as {
  recipient_secret_key_b64: string;
  recipient_public_key_b64: string;
  cases: { plaintext: string; ciphertext_b64: string }[];
  tampered_ciphertext_b64: string;
};

describe('spec/vectors sealed boxes, against a real service process', () => {
  let vsvc: Service;
  beforeAll(async () => {
    vsvc = await spawnService({ encryptionSecretKey: VECTORS.recipient_secret_key_b64 });
  });
  afterAll(() => vsvc?.close());

  it("the imported key is the vectors' recipient", () => {
    expect(vsvc.keys.encryptionPublicKey).toBe(VECTORS.recipient_public_key_b64);
  });

  it('opens every libsodium-made box into the card the plaintext describes', async () => {
    for (const c of VECTORS.cases) {
      const plain = JSON.parse(c.plaintext) as Record<string, unknown>;
      const res = await vsvc.post(
        envelope(c.ciphertext_b64, vsvc.keys.encryptionKeyId),
        vsvc.bearer(),
      );
      expect(res.status).toBe(201);
      const { data } = await res.json();
      expect(data).toMatchObject({ title: plain.title, severity: plain.severity });
      if (plain.description) expect(data.description).toBe(plain.description);
    }
  });

  it('the tampered vector gets the 422 decryption error', async () => {
    const res = await vsvc.post(envelope(VECTORS.tampered_ciphertext_b64), vsvc.bearer());
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual(DECRYPT);
  });
});
