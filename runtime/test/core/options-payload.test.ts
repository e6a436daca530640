// What a report carries (contract 8.5): title and description bounds, severity and priority,
// observed on the wire of a real HTTP server.
import { describe, expect, it } from 'vitest';
import { clientFor, KEY } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

const bodies = () => server().requests.map((r) => r.json);

describe('payload', () => {
  it('title clamp to 255 code points without splitting a pair; description 60000; Error rendering', async () => {
    const { client } = clientFor(server().url, KEY);
    const err = new TypeError('bad input', { cause: new RangeError('root cause') });
    client.minor(`${'a'.repeat(254)}😀😀`, err);
    client.minor('long', 'x'.repeat(70_000));
    await client.flush();
    const [a, b] = bodies().sort((x, y) => String(x?.title).length - String(y?.title).length);
    expect(b?.title).toBe(`${'a'.repeat(254)}😀`);
    expect(String(b?.description)).toMatch(
      /^TypeError: bad input\n {4}at .+\nCaused by: RangeError: root cause\n {4}at /s,
    );
    expect(String(a?.description)).toHaveLength(60_000);
  });

  it("an error's digest (React and Next.js server errors) is a line of the description", async () => {
    const { client } = clientFor(server().url, KEY);
    const err = Object.assign(new Error('Order 7 missing'), { digest: '3052120218' });
    client.minor('digest', err);
    client.minor('no digest', Object.assign(new Error('plain'), { digest: 42 }));
    await client.flush();
    const by = Object.fromEntries(bodies().map((b) => [b?.title, String(b?.description)]));
    expect(by.digest).toMatch(/^Error: Order 7 missing\n {4}at .+\nDigest: 3052120218$/s);
    expect(by['no digest']).not.toContain('Digest');
  });

  it('severity and priority come from the method name', async () => {
    const { client } = clientFor(server().url, KEY);
    client.criticalHigh('ch');
    client.moderate('m');
    client.minorLow('ml');
    await client.flush();
    const by = Object.fromEntries(bodies().map((b) => [b?.title, [b?.severity, b?.priority]]));
    expect(by).toEqual({
      ch: ['critical', 'high'],
      m: ['moderate', 'medium'],
      ml: ['minor', 'low'],
    });
  });
});
