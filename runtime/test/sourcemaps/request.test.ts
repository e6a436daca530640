// One upload against a recording server on 127.0.0.1 that checks signatures with node:crypto
// (independently of the SDK's signing code) and answers as each test scripts: the service's
// failures (503 with Retry-After, a refusal, no answer at all) the reference service cannot be
// made to give on demand. The real service's answers: ./cli.test.ts.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { redactUrl, SOURCEMAPS_PATH, uploadMap } from '../../src/sourcemaps/request.ts';
import { SIGNING, useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();
const BODY = JSON.stringify({ release: '1.0.0', path: 'assets/a.js', map: { version: 3 } });

function target(extra: Partial<Parameters<typeof uploadMap>[0]> = {}) {
  const waits: number[] = [];
  let clock = 1_800_000_000_000;
  return {
    waits,
    target: {
      serviceUrl: server().url,
      ...SIGNING,
      now: () => (clock += 10_000),
      sleep: async (ms: number) => {
        waits.push(ms);
      },
      random: () => 0.5,
      ...extra,
    },
  };
}

describe('uploadMap', () => {
  it('posts the body to /api/v1/sourcemaps, signed over that path', async () => {
    server().respond(() => ({ status: 201, body: { created: true, replaced: false } }));
    const { target: t } = target();
    expect(await uploadMap(t, BODY)).toEqual({ kind: 'stored', created: true });
    const [request] = server().requests;
    expect(request!.url).toBe(SOURCEMAPS_PATH);
    expect(request!.raw).toBe(BODY);
    expect(request!.signatureValid).toBe(true);
    expect(request!.headers['x-svc-key-id']).toBe(SIGNING.keyId);
    expect(request!.headers['content-type']).toBe('application/json');
  });

  it('the same map again (200, created false) counts as stored', async () => {
    server().respond(() => ({ status: 200, body: { created: false, replaced: false } }));
    expect(await uploadMap(target().target, BODY)).toEqual({ kind: 'stored', created: false });
  });

  it('503 with Retry-After: waits that long, re-signs each attempt, then succeeds', async () => {
    server().respond((_req, i) =>
      i < 2
        ? { status: 503, headers: { 'retry-after': '7' }, body: { message: 'busy' } }
        : undefined,
    );
    const { target: t, waits } = target();
    expect(await uploadMap(t, BODY)).toEqual({ kind: 'stored', created: true });
    expect(waits).toEqual([7000, 7000]);
    const stamps = server().requests.map((r) => r.headers['x-svc-timestamp']);
    expect(new Set(stamps).size).toBe(3);
    expect(server().requests.every((r) => r.signatureValid)).toBe(true);
  });

  it('a refusal (422) is not retried and gives the service message and first field error', async () => {
    server().respond(() => ({
      status: 422,
      body: {
        message: 'The given data was invalid.',
        errors: { 'map.sources': ['No ".." here.'] },
      },
    }));
    expect(await uploadMap(target().target, BODY)).toEqual({
      kind: 'refused',
      status: 422,
      message: 'The given data was invalid. (map.sources: No ".." here.)',
    });
    expect(server().requests).toHaveLength(1);
  });

  it('500s are retried maxRetries times with the backoff, then refused with the message', async () => {
    server().respond(() => ({ status: 500, body: { message: 'Server error.' } }));
    const { target: t, waits } = target({ maxRetries: 2 });
    expect(await uploadMap(t, BODY)).toEqual({
      kind: 'refused',
      status: 500,
      message: 'Server error.',
    });
    expect(waits).toEqual([375, 750]); // equal jitter at random() = 0.5: 3/4 of 500, then of 1000
  });

  it('a service that resets the connection is retried, then unreachable', async () => {
    server().respond(() => ({ destroy: true }));
    const { target: t } = target({ maxRetries: 1 });
    const outcome = await uploadMap(t, BODY);
    expect(outcome.kind).toBe('unreachable');
    expect(server().requests).toHaveLength(2);
  });

  it('a service that accepts the connection and answers nothing: unreachable within the deadline', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const port = (silent.address() as { port: number }).port;
      const outcome = await uploadMap(
        {
          ...target().target,
          serviceUrl: `http://127.0.0.1:${port}`,
          timeoutMs: 200,
          maxRetries: 0,
        },
        BODY,
      );
      expect(outcome).toMatchObject({ kind: 'unreachable' });
    } finally {
      silent.close();
    }
  });

  it('credentials in the address become Basic auth, never part of the request URL', async () => {
    const url = server().url.replace('http://', 'http://deploy:p%40ss@');
    await uploadMap({ ...target().target, serviceUrl: url }, BODY);
    const [request] = server().requests;
    expect(request!.headers.authorization).toBe(
      `Basic ${Buffer.from('deploy:p@ss').toString('base64')}`,
    );
    expect(request!.signatureValid).toBe(true);
    expect(redactUrl(url)).toBe(`${server().url.replace('http://', 'http://***@')}`);
  });
});
