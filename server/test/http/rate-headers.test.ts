import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, type Service, spawnService } from '../helpers.ts';
import { LIMIT, REMAINING, rawSender } from './raw-send.ts';

// Black-box, against the built service: the rate headers on every answer once the project is
// known, 413s included.
let svc: Service;
beforeAll(async () => {
  svc = await spawnService({ bodyTimeoutMs: 1000, secondProject: true });
});
afterAll(() => svc?.close());

const send = rawSender(() => svc.url);

describe('rate headers once the project is known (contract 8.2)', () => {
  it('on 404s, 422s and 403s of a valid key; never on a 401', async () => {
    const answers = [
      await fetch(`${svc.url}/api/v2/tasks`, { method: 'POST', headers: svc.bearer() }),
      await fetch(`${svc.url}/nowhere`, { headers: svc.bearer() }),
      await svc.post('{', svc.bearer()),
      await svc.post(report({ title: 'x'.repeat(300) }), svc.bearer()),
      await svc.post('{', svc.signed('{')),
      await svc.post(report({ title: 'Origin' }), {
        ...svc.bearer(svc.keys.restrictedKey),
        origin: 'https://evil.test',
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 422, 422, 422, 403]);
    for (const r of answers) {
      expect(r.headers.get(LIMIT)).toBe('500');
      expect(Number(r.headers.get(REMAINING))).toBeGreaterThan(0);
    }
    const signed404 = await fetch(`${svc.url}/api/v2/tasks`, {
      method: 'POST',
      headers: svc.signed('{}'),
      body: '{}',
    });
    expect([signed404.status, signed404.headers.get(LIMIT)]).toEqual([404, '500']);
    for (const r of [
      await svc.post(report({ title: 'No key' })),
      await svc.post(report({ title: 'Wrong' }), svc.bearer(`svc_pub_${'0'.repeat(48)}`)),
      await fetch(`${svc.url}/api/v2/tasks`, { method: 'POST' }),
    ]) {
      expect(r.status === 401 || r.status === 404).toBe(true);
      expect(r.headers.get(LIMIT)).toBeNull();
    }
  });

  it('the remaining count is the project’s own, after its accepted reports', async () => {
    const before = Number((await svc.post('{', svc.bearer())).headers.get(REMAINING));
    expect((await svc.post(report({ title: 'Counted' }), svc.bearer())).status).toBe(201);
    const after = await fetch(`${svc.url}/api/v2/tasks`, { method: 'POST', headers: svc.bearer() });
    expect(Number(after.headers.get(REMAINING))).toBe(before - 1);
  });

  it('on a 413 with a bearer token; a signed 413 cannot be verified and carries none', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 'x');
    const bearer = await send(big, svc.bearer());
    expect([bearer.status, bearer.headers[LIMIT]]).toEqual([413, '500']);
    const signed = await send(big, svc.signed(big));
    expect([signed.status, signed.headers[LIMIT]]).toEqual([413, undefined]);
  });
});
