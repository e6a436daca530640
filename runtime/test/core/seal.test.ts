// Payload encryption (contract 10): sealed by the SDK (@noble primitives), opened by libsodium in the
// recording server, an independent implementation.
import { expect, it } from 'vitest';
import { clientFor, KEY } from '../helpers/client.ts';
import { SEALING, SIGNING, useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

const BEARER = KEY;

it('seals every report; libsodium opens it; key_id is echoed', async () => {
  const { client } = clientFor(server().url, {
    ...BEARER,
    encryptionPublicKey: SEALING.publicKey,
    encryptionKeyId: 'svcek_1',
  });
  client.critical('Sealed one', 'secret details');
  client.minorHigh('Sealed two');
  expect((await client.flush()).sent).toBe(2);
  for (const r of server().requests) {
    expect(Object.keys(JSON.parse(r.raw))).toEqual(['encrypted']);
    expect(r.envelope).toMatchObject({ v: 1, alg: 'x25519-sealedbox', key_id: 'svcek_1' });
    expect(r.raw).not.toContain('Sealed');
  }
  expect(
    server()
      .requests.map((r) => r.json?.title)
      .sort(),
  ).toEqual(['Sealed one', 'Sealed two']);
  expect(server().requests.find((r) => r.json?.title === 'Sealed one')?.json?.description).toBe(
    'secret details',
  );
});

it('omits key_id when not configured, and signs the envelope bytes', async () => {
  const { client } = clientFor(server().url, {
    ...SIGNING,
    encryptionPublicKey: SEALING.publicKey,
  });
  client.major('Sealed and signed');
  expect((await client.flush()).sent).toBe(1);
  const [r] = server().requests;
  expect(r.envelope && 'key_id' in r.envelope).toBe(false);
  expect(r.signatureValid).toBe(true);
  expect(r.json?.title).toBe('Sealed and signed');
});

it.each([['not base64 at all'], ['AAAA'], [`${'A'.repeat(42)}==`], [42]])(
  'a bad key (%s) gives one warning and nothing is sent',
  async (key) => {
    const { client, log } = clientFor(server().url, {
      ...BEARER,
      encryptionPublicKey: key as string,
    });
    for (let i = 0; i < 5; i++) client.major(`Not sent ${i}`);
    const r = await client.flush();
    expect(server().requests).toHaveLength(0);
    expect(r.sent + r.failed).toBe(0);
    const warnings = log.lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].text).toContain('encryptionPublicKey');
  },
);
