// The exit flush as one of the close listeners Next's server awaits (src/server/close.ts), on a
// stand-in render server: the listener Next would run flushes the client, once per process; no
// Next server here is said, not thrown. The real `next start` (SIGTERM 0.2 s after a report, the
// service up, refusing and silent) is pack/test/matrix/exit.test.ts.
import { createFakeClient } from '@svc/runtime/testing';
import { carrier } from '@svc/runtime/kit';
import { beforeEach, expect, it } from 'vitest';
import { flushOnServerClose, type RenderServer } from '../../src/server/close.ts';

beforeEach(() => {
  carrier().nextClose = undefined;
});

function standIn() {
  const calls: { dir: string; field: string; args: unknown[] }[] = [];
  const server: RenderServer = {
    async propagateServerField(dir, field, args) {
      calls.push({ dir, field, args });
    },
  };
  return { calls, find: () => ({ dir: '/srv/app', server }) };
}

it("adds one close listener that flushes the client; Next's close awaits it", async () => {
  const client = createFakeClient();
  const { calls, find } = standIn();
  const lines: string[] = [];
  expect(await flushOnServerClose(client, 2000, (l) => lines.push(l), find)).toBe(true);
  expect(await flushOnServerClose(client, 2000, (l) => lines.push(l), find)).toBe(true);
  expect(calls).toHaveLength(1); // once per process
  expect(calls[0]).toMatchObject({ dir: '/srv/app', field: 'onServerClose' });
  client.major('Made before the signal');
  const listener = calls[0]!.args[0] as () => Promise<void>;
  await listener(); // what Next's close() awaits
  client.assertFlushed();
  expect(lines).toEqual(['[svc/next] reports are flushed when the Next server in /srv/app closes']);
});

it('no Next server in this process (a custom server): says so, throws nothing, may try again', async () => {
  const client = createFakeClient();
  const lines: string[] = [];
  const missing = () => {
    throw new Error("Cannot find module 'next/dist/server/lib/render-server.js'");
  };
  expect(await flushOnServerClose(client, 2000, (l) => lines.push(l), missing)).toBe(false);
  expect(lines[0]).toContain('no Next server to wait for the last reports');
  const { calls, find } = standIn();
  expect(await flushOnServerClose(client, 2000, () => {}, find)).toBe(true);
  expect(calls).toHaveLength(1);
});
