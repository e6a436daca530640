// The delivery options of contract 8.5 (queue size, flush cadence, flush timeout), observed on
// the wire of a real HTTP server.
import { describe, expect, it } from 'vitest';
import { clientFor, KEY } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

const bodies = () => server().requests.map((r) => r.json);

describe('switches', () => {
  it('maxQueueSize: the newest report is dropped and counted, visible in debug', async () => {
    const { client, log } = clientFor(server().url, { ...KEY, maxQueueSize: 2, debug: true });
    for (const t of ['1', '2', '3', '4']) client.major(t);
    const r = await client.flush();
    expect(r.dropped.overflow).toBe(2);
    expect(r.sent).toBe(2);
    expect(
      bodies()
        .map((b) => b?.title)
        .sort(),
    ).toEqual(['1', '2']);
    expect(log.lines.some((l) => l.level === 'debug' && l.text.includes('queue full'))).toBe(true);
  });

  it('flushIntervalMs: queued reports go out on the cadence without flush()', async () => {
    const { client } = clientFor(server().url, { ...KEY, flushIntervalMs: 30 });
    client.major('on cadence');
    await new Promise((r) => setTimeout(r, 300));
    expect(bodies().map((b) => b?.title)).toEqual(['on cadence']);
    expect((await client.flush()).sent).toBe(1);
  });

  it('flush({ timeoutMs }) returns what finished so far', async () => {
    server().respond(() => ({ delayMs: 400 }));
    const { client } = clientFor(server().url, KEY);
    client.major('slow');
    const early = await client.flush({ timeoutMs: 20 });
    expect(early.sent).toBe(0);
    const late = await client.flush();
    expect(late.sent).toBe(1);
  });
});
