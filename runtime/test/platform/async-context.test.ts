// A Node client never reads the clock or random values in its caller's async context: sampling,
// signing, sealing and backoff run in the context the package was loaded in (src/platform/node.ts
// `detach`). Next.js 16 (`cacheComponents`) records such reads during a prerender; the child
// process (fixtures/prerender-reads.mjs) does what Next does with its own AsyncLocalStorage, since
// a Next build per test run is not possible here (the Next integration's end-to-end tests build one).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { SEALING, SIGNING, useRecordingServer } from '../helpers/recording-server.ts';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../fixtures/prerender-reads.mjs', import.meta.url));
const server = useRecordingServer();

it('no clock or random read in a prerender: sampled, signed, sealed, retried after a 503', async () => {
  server().respond((_req, i) => (i === 0 ? { status: 503, body: { message: 'busy' } } : undefined));
  const { stdout } = await run(process.execPath, [SCRIPT], {
    env: {
      ...process.env,
      SERVICE_URL: server().url,
      SVC_KEY_ID: SIGNING.keyId,
      SVC_SIGNING_SECRET: SIGNING.signingSecret,
      SVC_ENCRYPTION_KEY: SEALING.publicKey,
    },
  });
  const { reads, flushed } = JSON.parse(stdout.trim().split('\n').pop() as string);
  expect(flushed).toMatchObject({ sent: 2, failed: 0 });
  expect(server().requests.length).toBeGreaterThanOrEqual(3); // the 503 was retried
  expect(server().requests.every((r) => r.signatureValid && r.envelope)).toBe(true);
  expect(reads).toEqual([]);
});
