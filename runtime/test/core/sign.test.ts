// Signed requests (contract 5.2): the spec vectors, then over HTTP, verified with node:crypto.
import { describe, expect, it } from 'vitest';
import vectors from '../../../spec/vectors/signatures.json' with { type: 'json' };
import { hmacHex, nodeCryptoHex, sha256Hex, signHeaders, webCrypto } from '../../src/core/sign.ts';
import { TASKS_PATH } from '../../src/generated/service.gen.ts';
import { clientFor, fakeSleep } from '../helpers/client.ts';
import { SIGNING, useRecordingServer } from '../helpers/recording-server.ts';

const enc = new TextEncoder();

describe('signature vectors', () => {
  it.each(vectors.cases)('$name', async (v) => {
    expect(await sha256Hex(enc.encode(v.body))).toBe(v.body_sha256_hex);
    expect(await hmacHex(v.signing_secret, v.signed_payload)).toBe(v.signature);
    const h = await signHeaders(
      v.key_id,
      v.signing_secret,
      enc.encode(v.body),
      Number(v.timestamp) * 1000 + 999,
      v.method,
      TASKS_PATH,
    );
    expect(h).toEqual({
      'X-Svc-Key-Id': v.key_id,
      'X-Svc-Timestamp': v.timestamp,
      'X-Svc-Signature': v.signature,
    });
  });
  // Node signs with node:crypto; browsers and edge runtimes with WebCrypto: both give the vectors,
  // from the body's bytes or from the string sent.
  it.each([
    ['node:crypto', nodeCryptoHex],
    ['WebCrypto', webCrypto],
  ])('%s gives every vector', async (_name, impl) => {
    for (const v of vectors.cases) {
      expect(await impl!.sha256Hex(v.body)).toBe(v.body_sha256_hex);
      expect(await impl!.sha256Hex(enc.encode(v.body))).toBe(v.body_sha256_hex);
      expect(await impl!.hmacHex(v.signing_secret, v.signed_payload)).toBe(v.signature);
      expect(await impl!.hmacHex(v.signing_secret, v.signed_payload)).toBe(v.signature); // key kept
    }
  });
  it('a Node client signs with node:crypto', () => {
    expect(nodeCryptoHex).toBeDefined();
    expect(sha256Hex).toBe(nodeCryptoHex?.sha256Hex);
  });
  it('uses the whole secret, prefix included', async () => {
    const v = vectors.cases[0];
    const stripped = await hmacHex(v.signing_secret.replace(/^svc_sec_/, ''), v.signed_payload);
    expect(stripped).toBe(vectors.negative.signature_if_prefix_stripped);
    expect(stripped).not.toBe(v.signature);
  });
});

describe('over HTTP', () => {
  const server = useRecordingServer();

  it('signs the exact bytes sent (non-ASCII body) and never sends the secret', async () => {
    const { client } = clientFor(server().url, SIGNING);
    client.minorLow('Ünïcode — ✓ / slash 😀', 'détails', ['env:prod']);
    expect((await client.flush()).sent).toBe(1);
    const [req] = server().requests;
    expect(req.signatureValid).toBe(true);
    expect(req.headers.authorization).toBeUndefined();
    expect(JSON.stringify(req.headers) + req.raw).not.toContain(SIGNING.signingSecret);
    expect(req.json?.title).toBe('Ünïcode — ✓ / slash 😀');
  });

  it('re-signs every retry with a fresh timestamp over the same bytes', async () => {
    server().respond((_r, i) => (i < 2 ? { status: 503 } : { status: 201 }));
    let now = 1_750_000_000_000;
    const s = fakeSleep();
    const { client } = clientFor(server().url, SIGNING, {
      now: () => now,
      sleep: async (ms) => {
        now += 10_000;
        await s.sleep(ms);
      },
    });
    client.major('Retried and re-signed');
    expect((await client.flush()).sent).toBe(1);
    const ts = server().requests.map((r) => r.headers['x-svc-timestamp']);
    expect(ts).toEqual(['1750000000', '1750000010', '1750000020']);
    expect(server().requests.every((r) => r.signatureValid)).toBe(true);
    expect(new Set(server().requests.map((r) => r.raw)).size).toBe(1);
  });

  it('prefers signed auth when apiKey is also given, with a warning', async () => {
    const { client, log } = clientFor(server().url, { ...SIGNING, apiKey: 'svc_pub_aaaaaaaa' });
    client.major('Both kinds');
    await client.flush();
    expect(server().requests[0].signatureValid).toBe(true);
    expect(server().requests[0].headers.authorization).toBeUndefined();
    expect(log.lines.filter((l) => l.level === 'warn').map((l) => l.text)).toEqual([
      '[svc] apiKey ignored: keyId + signingSecret take precedence (signed auth)',
    ]);
  });
});
