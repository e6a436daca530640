// Options of contract 8.5 that gate, tag, locate or rewrite each report, observed on the wire of a
// real HTTP server. The others: ./options-credentials.test.ts, ./options-delivery.test.ts,
// ./options-payload.test.ts.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/generated/limits.gen.ts';
import { API_KEY, clientFor, KEY } from '../helpers/client.ts';
import { useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

const bodies = () => server().requests.map((r) => r.json);

describe('switches', () => {
  it('enabled: false sends nothing and warns nothing', async () => {
    const { client, log } = clientFor(server().url, { ...KEY, enabled: false });
    client.major('Off');
    await client.flush();
    expect(server().requests).toHaveLength(0);
    expect(log.lines).toHaveLength(0);
  });

  it('environment, release and defaultTags fold into tags', async () => {
    const { client } = clientFor(server().url, {
      ...KEY,
      environment: 'prod',
      release: '1.2.3',
      defaultTags: ['svc', ' api '],
    });
    client.major('Tagged', undefined, ' a , b,,a, svc ');
    client.major('Tagged array', undefined, ['x', 'x', 'y'.repeat(80)]);
    await client.flush();
    const tagsOf = Object.fromEntries(bodies().map((b) => [b?.title, b?.tags]));
    expect(tagsOf.Tagged).toEqual(['svc', 'api', 'env:prod', 'release:1.2.3', 'a', 'b']);
    expect(tagsOf['Tagged array']).toEqual([
      'svc',
      'api',
      'env:prod',
      'release:1.2.3',
      'x',
      'y'.repeat(50),
    ]);
  });

  it('sampleRate: 0 drops everything, counted as sampled', async () => {
    const { client } = clientFor(server().url, { ...KEY, sampleRate: 0 });
    client.major('a');
    client.major('b');
    const r = await client.flush();
    expect(r.dropped.sampled).toBe(2);
    expect(server().requests).toHaveLength(0);
  });

  it('sampleRate: 0.5 keeps reports whose draw is below the rate', async () => {
    const draws = [0.1, 0.7, 0.49, 0.5];
    const { client } = clientFor(
      server().url,
      { ...KEY, sampleRate: 0.5 },
      { random: () => draws.shift() ?? 0 },
    );
    for (const t of ['a', 'b', 'c', 'd']) client.major(t);
    const r = await client.flush();
    expect(r.dropped.sampled).toBe(2);
    expect(
      bodies()
        .map((b) => b?.title)
        .sort(),
    ).toEqual(['a', 'c']);
  });

  it('hideApiResponse: header on by default, absent when false', async () => {
    clientFor(server().url, KEY).client.major('hidden');
    const { client } = clientFor(server().url, KEY);
    client.major('hidden');
    await client.flush();
    const shown = clientFor(server().url, { ...KEY, hideApiResponse: false }).client;
    shown.major('shown');
    await shown.flush();
    const byTitle = Object.fromEntries(
      server().requests.map((r) => [r.json?.title, r.headers['x-svc-hide-response']]),
    );
    expect(byTitle).toEqual({ hidden: 'true', shown: undefined });
  });

  it('captureLocation (default on) attaches file_name; lineNumbers adds line_number', async () => {
    const on = clientFor(server().url, { ...KEY, captureLocation: true }).client;
    on.major('located');
    await on.flush();
    const lines = clientFor(server().url, {
      ...KEY,
      captureLocation: true,
      lineNumbers: true,
    }).client;
    lines.major('with line');
    await lines.flush();
    const off = clientFor(server().url, { ...KEY, captureLocation: false }).client;
    off.major('not located');
    await off.flush();
    const by = Object.fromEntries(bodies().map((b) => [b?.title, b]));
    expect(by.located?.file_name).toMatch(/(^|\/)test\/core\/options\.test\.ts$/);
    expect(by.located?.line_number).toBeUndefined();
    expect(by['with line']?.file_name).toMatch(/(^|\/)test\/core\/options\.test\.ts$/);
    expect(by['with line']?.line_number).toBeGreaterThan(1);
    expect(by['not located']).not.toHaveProperty('file_name');
  });
});

describe('beforeSend', () => {
  it('may mutate, replace, or drop with null/undefined; result is validated and clamped', async () => {
    const { client } = clientFor(server().url, {
      ...KEY,
      beforeSend: (p) => {
        if (p.title === 'drop-null') return null;
        if (p.title === 'drop-undefined') return undefined;
        if (p.title === 'mutate') {
          p.description = 'scrubbed';
          return p;
        }
        return {
          ...p,
          title: 't'.repeat(300),
          severity: 'minor',
          priority: 'low',
          status: 'done',
          tags: 'q, q , r',
          line_number: -1,
        } as never;
      },
    });
    client.criticalHigh('drop-null');
    client.criticalHigh('drop-undefined');
    client.criticalHigh('mutate', 'secret');
    client.criticalHigh('replace');
    const r = await client.flush();
    expect(r.dropped.beforeSend).toBe(2);
    const by = Object.fromEntries(bodies().map((b) => [String(b?.title).slice(0, 6), b]));
    expect(by.mutate?.description).toBe('scrubbed');
    expect(by.tttttt).toEqual({
      severity: 'critical',
      priority: 'high',
      title: 't'.repeat(255),
      tags: ['q', 'r'],
    });
  });

  it('a line_number above the contract bound (2147483647) is left out, the bound itself is kept', async () => {
    const { client } = clientFor(server().url, {
      ...KEY,
      beforeSend: (p) => ({ ...p, line_number: Number(p.title) }) as never,
    });
    for (const line of [LIMITS.lineNumberMax, LIMITS.lineNumberMax + 1, 2 ** 53 - 1, 1e300]) {
      client.major(String(line));
    }
    await client.flush();
    // Reports travel concurrently, so they may arrive in any order.
    const lines = bodies()
      .map((b) => [b?.title, b?.line_number])
      .sort(([a], [b]) => Number(a) - Number(b));
    expect(lines).toEqual([
      [String(LIMITS.lineNumberMax), LIMITS.lineNumberMax],
      [String(LIMITS.lineNumberMax + 1), undefined],
      [String(2 ** 53 - 1), undefined],
      [String(1e300), undefined],
    ]);
  });

  it('async beforeSend is awaited; a throwing one drops the report', async () => {
    const { client, log } = clientFor(server().url, {
      ...KEY,
      debug: true,
      beforeSend: async (p) => {
        if (p.title === 'throws') throw new Error(`no ${API_KEY}`);
        return { ...p, title: `${p.title}!` };
      },
    });
    client.major('async');
    client.major('throws');
    const r = await client.flush();
    expect(r).toMatchObject({ sent: 1, dropped: { beforeSend: 1 } });
    expect(bodies().map((b) => b?.title)).toEqual(['async!']);
    expect(log.lines.some((l) => l.text.includes('beforeSend threw'))).toBe(true);
    expect(JSON.stringify(log.lines)).not.toContain(API_KEY);
  });

  it('sees the captured location', async () => {
    const seen: unknown[] = [];
    const { client } = clientFor(server().url, {
      ...KEY,
      captureLocation: true,
      beforeSend: (p) => {
        seen.push(p.file_name);
        return p;
      },
    });
    client.major('where');
    await client.flush();
    expect(String(seen[0])).toMatch(/(^|\/)test\/core\/options\.test\.ts$/);
  });
});
