// Node delivery on node:http (src/platform/node-send.ts) against the fetch path it replaced: the
// same client, once with its default sender and once with `fetch` injected, sends to the same
// recording servers; the requests, outcomes and warnings must be the same, redirects included
// (followed as fetch follows them). HTTPS runs in a child process that trusts a self-signed
// certificate through NODE_EXTRA_CA_CERTS, as a user would.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SvcOptions } from '../../src/index.node.ts';
import { API_KEY, clientFor, fakeSleep, KEY } from '../helpers/client.ts';
import {
  type RecordingServer,
  type Recorded,
  SIGNING,
  startRecordingServer,
  useRecordingServer,
} from '../helpers/recording-server.ts';
import { hasOpenssl, selfSignedCert } from '../helpers/tls.ts';

const server = useRecordingServer();
let other: RecordingServer;
beforeAll(async () => {
  other = await startRecordingServer();
});
afterAll(() => other?.close());

/** What a request showed on the wire (the headers the SDK sets, and the bytes). */
const seen = (r: Recorded) => ({
  method: r.method,
  url: r.url,
  headers: Object.fromEntries(
    [
      'content-type',
      'accept',
      'authorization',
      'x-svc-hide-response',
      'x-svc-key-id',
      'content-length',
      'user-agent',
    ].map((name) => [name, r.headers[name]]),
  ),
  signed: r.signatureValid,
  raw: r.raw,
});

/** Runs `report` on a client of each kind; returns what the servers saw and the client's result. */
async function both(
  options: SvcOptions,
  report: (client: ReturnType<typeof clientFor>['client']) => void,
) {
  const runs = [];
  for (const kind of ['node:http', 'fetch'] as const) {
    server().requests.length = 0;
    other.requests.length = 0;
    const { sleep } = fakeSleep();
    const { client, log } = clientFor(
      server().url,
      { ...options, hideApiResponse: true },
      // The injected fetch is Node's own: only the sender differs.
      kind === 'fetch' ? { sleep, fetch: (input, init) => fetch(input, init) } : { sleep },
    );
    report(client);
    const result = await client.flush();
    runs.push({
      kind,
      requests: [...server().requests, ...other.requests],
      result,
      warnings: log.lines.filter((l) => l.level === 'warn').map((l) => l.text),
    });
  }
  return { node: runs[0], fetch: runs[1] };
}

it('sends the same requests as fetch, without the headers only fetch adds', async () => {
  for (const options of [KEY, SIGNING]) {
    const { node, fetch } = await both(options, (client) => {
      client.major('Same wire', 'described ü');
      client.minorHigh('Second', undefined, ['a', 'b']);
    });
    expect(node.result).toEqual(fetch.result);
    expect(node.result.sent).toBe(2);
    // In flight together, so in either order.
    expect(node.requests.map(seen).sort(byBody)).toEqual(fetch.requests.map(seen).sort(byBody));
    expect(node.requests.every((r) => r.headers['sec-fetch-mode'] === undefined)).toBe(true);
    expect(fetch.requests.every((r) => r.headers['sec-fetch-mode'] === 'cors')).toBe(true);
    if (options === KEY) expect(node.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
    else expect(node.requests.every((r) => r.signatureValid)).toBe(true);
  }
});

const byBody = (a: { raw: string }, b: { raw: string }) => a.raw.localeCompare(b.raw);

describe('redirects are followed as fetch follows them', () => {
  it.each([301, 302, 303, 307, 308])('%i to another path', async (status) => {
    server().respond((r) => {
      if (r.url === '/api/v1/tasks')
        return { status, headers: { location: '/moved/api/v1/tasks' } };
      return r.method === 'POST' ? undefined : { status: 405, body: { message: 'Not allowed' } };
    });
    const { node, fetch } = await both(KEY, (client) => client.major('Redirected'));
    expect(node.requests.map(seen)).toEqual(fetch.requests.map(seen));
    expect(node.result).toEqual(fetch.result);
    expect(node.warnings).toEqual(fetch.warnings);
    // 307 and 308 keep the POST and its body; 301, 302 and 303 turn it into a GET without one,
    // which this service refuses: one warning, the report failed.
    const kept = status === 307 || status === 308;
    expect(node.requests.map((r) => r.method)).toEqual(['POST', kept ? 'POST' : 'GET']);
    expect(node.result).toMatchObject(kept ? { sent: 1 } : { sent: 0, failed: 1 });
    expect(node.warnings).toHaveLength(kept ? 0 : 1);
  });

  it('to another origin: the bearer key stays behind, the signature headers go', async () => {
    server().respond(() => ({ status: 307, headers: { location: `${other.url}/api/v1/tasks` } }));
    for (const options of [KEY, SIGNING]) {
      const { node, fetch } = await both(options, (client) => client.major('Elsewhere'));
      expect(node.requests.map(seen)).toEqual(fetch.requests.map(seen));
      expect(node.result).toEqual(fetch.result);
      expect(node.requests[1].headers.authorization).toBeUndefined();
      if (options === SIGNING) expect(node.requests[1].signatureValid).toBe(true);
    }
  });

  it('a redirect loop is a network failure after 20 redirects, with the same warning', async () => {
    server().respond(() => ({ status: 307, headers: { location: '/api/v1/tasks' } }));
    const { node, fetch } = await both({ ...KEY, maxRetries: 0 }, (client) => client.major('Loop'));
    expect(node.requests).toHaveLength(21);
    expect(fetch.requests).toHaveLength(21);
    expect(node.result).toEqual(fetch.result);
    expect(node.result.failed).toBe(1);
    expect(node.warnings).toEqual(fetch.warnings);
    expect(node.warnings[0]).toContain('network error');
  });

  it('a 3xx without Location is an answer, as with fetch', async () => {
    server().respond(() => ({ status: 302 }));
    const { node, fetch } = await both(KEY, (client) => client.major('Nowhere'));
    expect(node.requests).toHaveLength(1);
    expect(node.result).toEqual(fetch.result);
    expect(node.warnings).toEqual(fetch.warnings);
  });
});

const SCRIPT = fileURLToPath(new URL('../fixtures/queue-and-exit.mjs', import.meta.url));
const tls = hasOpenssl();
if (!tls) console.log('skipped: HTTPS delivery needs the openssl command (Debian package openssl)');

it.runIf(tls)(
  'HTTPS: a certificate trusted through NODE_EXTRA_CA_CERTS, sockets reused',
  async () => {
    const cert = selfSignedCert('localhost');
    const https = await startRecordingServer(undefined, cert);
    const dir = mkdtempSync(join(tmpdir(), 'svc-ca-'));
    try {
      writeFileSync(join(dir, 'ca.pem'), cert.cert);
      const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT], {
        env: {
          ...process.env,
          NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
          SERVICE_URL: `https://localhost:${https.port}`,
          SVC_API_KEY: API_KEY,
          MODE: 'flushWithin',
          REPORTS: '30',
        },
      });
      expect(JSON.parse(stdout.trim().split('\n').pop() as string)).toMatchObject({ sent: 30 });
      expect(https.requests).toHaveLength(30);
      expect(https.sockets()).toBeLessThanOrEqual(3); // concurrency 3: one keep-alive socket a slot
    } finally {
      await https.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
