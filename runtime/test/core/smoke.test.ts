import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, SERVICE_URL } from '../../src/index.node.ts';
import {
  type RecordingServer,
  redirectFetch,
  SIGNING,
  startRecordingServer,
} from '../helpers/recording-server.ts';

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());

it('sends a signed report', async () => {
  const client = createClient(
    { ...SIGNING, environment: 'test' },
    { fetch: redirectFetch(server.url, SERVICE_URL) },
  );
  client.majorHigh('Boom', new Error('x'), 'a, b');
  const r = await client.flush();
  expect(r.sent).toBe(1);
  expect(server.requests[0].signatureValid).toBe(true);
  expect(server.requests[0].json).toMatchObject({
    severity: 'major',
    priority: 'high',
    title: 'Boom',
    tags: ['env:test', 'a', 'b'],
  });
});
