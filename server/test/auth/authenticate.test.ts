import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, type Service, signHeaders, spawnService } from '../helpers.ts';

// Black-box: contract section 5 against a real service process.
let svc: Service;
beforeAll(async () => {
  svc = await spawnService();
});
afterAll(() => svc?.close());

const UNAUTHORISED = { message: 'Invalid or missing project API key.' };
const expect401 = async (r: Response) => {
  expect(r.status).toBe(401);
  expect(r.headers.get('retry-after')).toBeNull();
  expect(await r.json()).toEqual(UNAUTHORISED);
};

describe('bearer', () => {
  it('accepts a publishable key and sets rate-limit headers', async () => {
    const r = await svc.post(report({ title: 'Bearer ok' }), svc.bearer());
    expect(r.status).toBe(201);
    expect(Number(r.headers.get('x-ratelimit-limit'))).toBe(500);
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(500);
  });
  it('refuses a missing, malformed or unknown token', async () => {
    await expect401(await svc.post(report({ title: 'No auth' })));
    await expect401(
      await svc.post(report({ title: 'x' }), { authorization: `Basic ${svc.keys.apiKey}` }),
    );
    await expect401(
      await svc.post(report({ title: 'x' }), svc.bearer(`svc_pub_${'0'.repeat(48)}`)),
    );
    await expect401(await svc.post(report({ title: 'x' }), svc.bearer(`${svc.keys.apiKey}0`)));
  });
  it('refuses a secret key (id or secret) as a bearer token', async () => {
    await expect401(await svc.post(report({ title: 'x' }), svc.bearer(svc.keys.signingSecret)));
    await expect401(await svc.post(report({ title: 'x' }), svc.bearer(svc.keys.keyId)));
  });
  it('refuses two schemes at once', async () => {
    const body = report({ title: 'Both' });
    await expect401(await svc.post(body, { ...svc.bearer(), ...svc.signed(body) }));
  });
});

describe('signed', () => {
  it('accepts a signature over non-ASCII raw bytes', async () => {
    const body = report({ title: 'Ünïcode — ✓ / slash 署名', description: '\u2028 emoji 🎉' });
    const r = await svc.post(body, svc.signed(body));
    expect(r.status).toBe(201);
    expect((await r.json()).data.title).toBe('Ünïcode — ✓ / slash 署名');
  });
  it('covers the exact bytes: an escaped re-serialisation of the same JSON fails', async () => {
    const body = report({ title: 'Bytes é' });
    const escaped = body.replace('é', '\\u00e9');
    await expect401(await svc.post(escaped, svc.signed(body)));
  });
  it('signs the constant path whatever the real path (query string ignored)', async () => {
    const body = report({ title: 'Query path' });
    const r = await fetch(`${svc.url}/api/v1/tasks?via=proxy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...svc.signed(body) },
      body,
    });
    expect(r.status).toBe(201);
  });
  it('accepts timestamps inside the 300 s window either way and refuses replays outside it', async () => {
    // Each request is signed from the clock just before it is sent. Both sides count whole seconds,
    // so the service's second may be one past the signer's: 302 s ahead is outside the window
    // however the request and the second boundary fall (301 s ahead could be read as 300).
    for (const [offset, status] of [
      [-290, 201],
      [290, 201],
      [-301, 401],
      [302, 401],
    ] as const) {
      const body = report({ title: `Window ${offset}` });
      const ts = Math.floor(Date.now() / 1000) + offset;
      const r = await svc.post(body, svc.signed(body, { ts }));
      expect([offset, r.status]).toEqual([offset, status]);
    }
  });
  it('a captured request replayed after the window is refused', async () => {
    const body = report({ title: 'Replay' });
    const old = svc.signed(body, { ts: Math.floor(Date.now() / 1000) - 3600 });
    await expect401(await svc.post(body, old));
  });
  it('refuses a wrong secret, the prefix-stripped secret, a publishable key and partial headers', async () => {
    const body = report({ title: 'Bad sig' });
    await expect401(
      await svc.post(body, svc.signed(body, { secret: `${svc.keys.signingSecret}x` })),
    );
    await expect401(
      await svc.post(body, svc.signed(body, { secret: svc.keys.signingSecret.slice(8) })),
    );
    await expect401(
      await svc.post(body, svc.signed(body, { keyId: svc.keys.apiKey, secret: svc.keys.apiKey })),
    );
    const { 'x-svc-signature': _s, ...partial } = svc.signed(body);
    await expect401(await svc.post(body, partial));
    const upper = svc.signed(body);
    upper['x-svc-signature'] = upper['x-svc-signature'].toUpperCase();
    await expect401(await svc.post(body, upper));
  });
});

describe('origin allow-list (5.3)', () => {
  const post = (headers: Record<string, string>) =>
    svc.post(report({ title: `Origin ${JSON.stringify(headers)}` }), {
      ...svc.bearer(svc.keys.restrictedKey),
      ...headers,
    });
  it('accepts full origins, bare hosts, the Referer fallback and app ids', async () => {
    expect((await post({ origin: 'https://app.example.com' })).status).toBe(201);
    expect((await post({ origin: 'http://shop.example.com' })).status).toBe(201);
    expect((await post({ referer: 'https://app.example.com/checkout?x=1' })).status).toBe(201);
    expect((await post({ 'x-svc-app-id': 'com.example.mobile' })).status).toBe(201);
  });
  it('refuses other origins, subdomains, schemes and no origin with 403', async () => {
    for (const h of <Record<string, string>[]>[
      { origin: 'https://evil.example.com' },
      { origin: 'https://eu.app.example.com' },
      { origin: 'http://app.example.com' },
      { referer: 'https://example.com/' },
      {},
    ]) {
      const r = await post(h);
      expect([h, r.status]).toEqual([h, 403]);
      expect(await r.json()).toEqual({ message: 'Origin not allowed.' });
    }
  });
  it('an empty list accepts any origin', async () => {
    const r = await svc.post(report({ title: 'Any origin' }), {
      ...svc.bearer(),
      origin: 'https://x.test',
    });
    expect(r.status).toBe(201);
  });
});

describe('revocation', () => {
  it('a revoked key is refused at once, others keep working', async () => {
    const other = await spawnService();
    try {
      const body = report({ title: 'Before revoke' });
      expect((await other.post(body, other.signed(body))).status).toBe(201);
      const cli = await other.cli('key', 'revoke', String(other.keys.secretKeyId));
      expect(cli.code).toBe(0);
      const again = report({ title: 'After revoke' });
      await expect401(await other.post(again, other.signed(again)));
      expect((await other.post(again, other.bearer())).status).toBe(201);
      await other.cli('key', 'revoke', String(other.keys.apiKeyId));
      await expect401(await other.post(report({ title: 'After revoke 2' }), other.bearer()));
    } finally {
      await other.close();
    }
  });
});

it('signHeaders helper reproduces the spec vector', () => {
  const h = signHeaders(
    '{"severity":"major","title":"SDK smoke test"}',
    'svc_sec_0123456789abcdef',
    'svck_test123',
    1750000000,
  );
  expect(h['x-svc-signature']).toBe(
    '95f41e243ccaec862f2f519cd907bb55bf56b5f158ce60e81044a909461a29e6',
  );
});
