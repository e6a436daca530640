// The service address (a deployment setting beside the options) and the visible warnings of a
// client that cannot deliver: against real local servers, a closed port and an unresolvable host.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { createCoreClient } from '../../src/core/client.ts';
import type { Platform } from '../../src/core/port.ts';
import { SERVICE_URL } from '../../src/index.node.ts';
import { clientFor, fakeSleep, KEY, recordingLogger } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();
const warnings = (log: ReturnType<typeof recordingLogger>) =>
  log.lines.filter((l) => l.level === 'warn').map((l) => l.text);

/** The core with the environment's address injected (Node's platform reads SERVICE_URL there). */
function clientWithEnv(envUrl: string | undefined, serviceUrl?: string) {
  const log = recordingLogger();
  const platform: Platform = { optionDefaults: { sourceMaps: false }, envServiceUrl: () => envUrl };
  const client = createCoreClient(
    platform,
    { ...KEY, captureLocation: false },
    {
      serviceUrl,
      logger: log.logger,
    },
  );
  return { client, log };
}

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

it('posts to serviceUrl + /api/v1/tasks, a trailing slash trimmed', async () => {
  const { client, log } = clientFor(`${server().url}/`, KEY);
  client.major('addressed');
  expect((await client.flush()).sent).toBe(1);
  expect(server().requests[0]!.json?.title).toBe('addressed');
  expect(warnings(log)).toEqual([]);
});

it('takes the explicit serviceUrl first, then the environment, then the generated default', async () => {
  const explicit = clientWithEnv('http://127.0.0.1:1', server().url);
  explicit.client.major('explicit wins');
  expect((await explicit.client.flush()).sent).toBe(1);

  const fromEnv = clientWithEnv(server().url);
  fromEnv.client.major('from the environment');
  expect((await fromEnv.client.flush()).sent).toBe(1);
  expect(server().requests.map((r) => r.json?.title)).toEqual([
    'explicit wins',
    'from the environment',
  ]);

  // An empty environment value counts as unset: the generated default address is used.
  const log = recordingLogger();
  const client = createCoreClient(
    { optionDefaults: { sourceMaps: false }, envServiceUrl: () => '' },
    { ...KEY, debug: true },
    { logger: log.logger },
  );
  await client.flush();
  expect(log.lines.find((l) => l.text.includes('client created'))?.text).toContain(
    `"serviceUrl":"${SERVICE_URL}"`,
  );
  expect(warnings(log)).toEqual([]);
});

it.each([
  ['ftp://svc.example.com'],
  ['svc.example.com'],
  ['https://svc.example.com/?token=1'],
  ['http://'],
])('a bad address (%s) warns once, with debug off, and disables the client', async (bad) => {
  const { client, log } = clientFor(bad, KEY);
  client.major('never sent');
  const result = await client.flush();
  expect(result.sent + result.failed).toBe(0);
  expect(server().requests).toHaveLength(0);
  expect(warnings(log)).toEqual([
    `[svc] serviceUrl ${bad} is not an absolute http(s) URL: client disabled, nothing is sent. Set SERVICE_URL (or serviceUrl) to your Svc service, e.g. https://svc.example.com`,
  ]);
});

it('connection refused: one warning naming the address and the fix, after the probe retries', async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const { sleep, delays } = fakeSleep();
  const { client, log } = clientFor(url, { ...KEY, maxRetries: 2 }, { sleep });
  client.major('one');
  client.major('two');
  expect((await client.flush()).failed).toBe(2);
  // One report probes with its retries (backoff as the contract says); the other waits for it
  // instead of retrying on its own, and fails with it.
  expect(delays).toHaveLength(2);
  expect(warnings(log)).toEqual([
    `[svc] cannot deliver to ${url}/api/v1/tasks: connection refused. Is the service running there? Check SERVICE_URL (or serviceUrl)`,
  ]);
});

it('an unresolvable host: one warning saying so', async () => {
  const { sleep } = fakeSleep();
  const { client, log } = clientFor('http://svc.invalid', { ...KEY, maxRetries: 0 }, { sleep });
  client.major('lost');
  expect((await client.flush()).failed).toBe(1);
  expect(warnings(log)).toEqual([
    '[svc] cannot deliver to http://svc.invalid/api/v1/tasks: its host name does not resolve (ENOTFOUND). Set SERVICE_URL (or serviceUrl) to the address of your Svc service',
  ]);
});

it('401 and 404: one warning per kind, never repeated, never a key in it', async () => {
  server().respond((r) =>
    r.json?.title === 'missing'
      ? { status: 404, body: { message: 'Not found' } }
      : { status: 401, body: { message: 'Invalid or missing project API key.' } },
  );
  const { client, log } = clientFor(server().url, KEY);
  for (const title of ['a', 'b', 'missing', 'c', 'missing']) client.major(title);
  expect((await client.flush()).failed).toBe(5);
  const url = `${server().url}/api/v1/tasks`;
  expect(warnings(log).sort()).toEqual([
    `[svc] cannot deliver to ${url}: it answered HTTP 404, so no Svc service is there. Check SERVICE_URL (or serviceUrl)`,
    `[svc] the service at ${url} refused the credentials (HTTP 401): check the key (apiKey, or keyId + signingSecret), that it is not revoked, and its allowed origins`,
  ]);
  expect(log.lines.map((l) => l.text).join('\n')).not.toContain(KEY.apiKey);
});

it('5xx and 422 are not setup problems: no warning', async () => {
  server().respond((_r, i) =>
    i === 0 ? { status: 422, body: { message: 'bad', errors: {} } } : { status: 503 },
  );
  const { sleep } = fakeSleep();
  const { client, log } = clientFor(server().url, { ...KEY, maxRetries: 1 }, { sleep });
  client.major('x');
  client.major('y');
  expect((await client.flush()).failed).toBe(2);
  expect(warnings(log)).toEqual([]);
});
