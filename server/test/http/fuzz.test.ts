import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, type Service, spawnService } from '../helpers.ts';

// Black-box: bad bodies get a 4xx JSON answer, never a 5xx, and the service keeps serving.
let svc: Service;
beforeAll(async () => {
  svc = await spawnService({ plans: { team: { burstPerMinute: 100_000, dailyEvents: 100_000 } } });
});
afterAll(() => svc?.close());

async function expectClientError(
  body: string | Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {},
) {
  const r = await svc.post(body, { ...svc.bearer(), ...headers });
  expect(r.status, `status for ${String(body).slice(0, 60)}`).toBeGreaterThanOrEqual(400);
  expect(r.status).toBeLessThan(500);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(typeof (await r.json()).message).toBe('string');
  return r.status;
}

const stillServing = async () => {
  const r = await svc.post(report({ title: `Alive ${Math.random()}` }), svc.bearer());
  expect(r.status).toBe(201);
};

describe('fuzzed bad bodies', () => {
  it('malformed JSON, empty body, non-objects, invalid UTF-8', async () => {
    for (const body of ['{', '', 'null', '[]', '"x"', '42', '{"severity":', '{"a":1}}', 'NaN']) {
      expect(await expectClientError(body)).toBe(422);
    }
    expect(await expectClientError(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))).toBe(422);
    await stillServing();
  });

  it('wrong types in every field', async () => {
    const wrong = [1, true, {}, [], [1], { a: 'b' }, -1, 1.5, 'x'];
    for (const field of [
      'severity',
      'priority',
      'title',
      'description',
      'tags',
      'file_name',
      'line_number',
    ]) {
      for (const value of wrong) {
        const body = { severity: 'major', title: `Types ${field}`, [field]: value };
        const r = await svc.post(JSON.stringify(body), svc.bearer());
        expect(r.status, `${field}=${JSON.stringify(value)}`).not.toBeGreaterThanOrEqual(500);
      }
    }
    await stillServing();
  });

  it('oversize fields', async () => {
    await expectClientError(report({ title: 'x'.repeat(10_000) }));
    await expectClientError(report({ title: 'D', description: 'x'.repeat(65_536) }));
    await expectClientError(
      report({ title: 'T', tags: Array.from({ length: 1000 }, () => 'y'.repeat(51)) }),
    );
    await stillServing();
  });

  it('a body of several MB is refused with 413', async () => {
    // node:http rather than fetch, which may not read an answer that arrives mid-upload. The
    // service reads and discards the rest of the body before answering, so no ECONNRESET.
    const body = report({ title: 'Big', description: 'x'.repeat(5_000_000) });
    const { status, text, type } = await new Promise<{
      status: number;
      text: string;
      type: string;
    }>((resolve, reject) => {
      const req = request(`${svc.url}/api/v1/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...svc.bearer() },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode!, text, type: String(res.headers['content-type']) }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(413);
    expect(type).toMatch(/^application\/json/);
    expect(typeof JSON.parse(text).message).toBe('string');
    await stillServing();
  });

  it('deep nesting', async () => {
    const depth = 200_000;
    // Deep nesting under an unknown key is valid JSON and ignored: accepted.
    const ignored = `{"severity":"major","title":"Deep","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect((await svc.post(ignored, svc.bearer())).status).toBe(201);
    await expectClientError(
      `{"severity":"major","description":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    );
    await expectClientError(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    await expectClientError('['.repeat(500_000));
    await stillServing();
  });

  it('other content types and odd encodings are answered as JSON', async () => {
    await expectClientError('severity=major', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    await expectClientError('garbage', { 'content-type': 'text/plain; charset=utf-16' });
    await expectClientError('{}', { 'content-encoding': 'gzip' });
    await stillServing();
  });

  it('random JSON values never produce a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        const r = await svc.post(JSON.stringify(value), svc.bearer());
        expect(r.status).toBeLessThan(500);
        await r.arrayBuffer();
      }),
      { numRuns: 150 },
    );
    await stillServing();
  });

  it('unknown routes and methods are JSON 404s', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/tasks'],
      ['POST', '/api/v2/tasks'],
      ['DELETE', '/api/v1/tasks/1'],
    ]) {
      const r = await fetch(svc.url + path, { method });
      expect(r.status).toBe(404);
      expect(typeof (await r.json()).message).toBe('string');
    }
  });

  it('answers the CORS preflight for cross-origin browser posts', async () => {
    const r = await fetch(`${svc.url}/api/v1/tasks`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-svc-hide-response',
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://app.test');
    expect(r.headers.get('access-control-allow-headers')).toMatch(/X-Svc-Hide-Response/);
    const post = await svc.post(report({ title: 'CORS' }), {
      ...svc.bearer(),
      origin: 'https://app.test',
    });
    expect(post.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining/);
  });
});

it('invalid UTF-8 inside a string is refused, not silently replaced', async () => {
  const bytes = Buffer.concat([
    Buffer.from('{"severity":"major","title":"bad '),
    Buffer.from([0xc3, 0x28]),
    Buffer.from('"}'),
  ]);
  expect(await expectClientError(bytes)).toBe(422);
});
