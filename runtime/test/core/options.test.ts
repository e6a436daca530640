// Every option of contract 8.5, observed on the wire of a real HTTP server.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/generated/limits.gen.ts';
import { API_KEY, clientFor, KEY } from '../helpers/client.ts';
import { SIGNING, useRecordingServer } from '../helpers/recording-server.ts';

const server = useRecordingServer();

const bodies = () => server().requests.map((r) => r.json);

describe('credentials', () => {
  it('bearer: Authorization header, standard headers', async () => {
    const { client } = clientFor(server().url, KEY);
    client.major('Bearer');
    await client.flush();
    const h = server().requests[0].headers;
    expect(h.authorization).toBe(`Bearer ${API_KEY}`);
    expect(h['content-type']).toBe('application/json');
    expect(h.accept).toBe('application/json');
    expect(h['x-svc-signature']).toBeUndefined();
  });

  it.each([[{}], [{ keyId: 'svck_1' }], [{ signingSecret: 'svc_sec_1' }], [{ apiKey: '  ' }]])(
    'without usable credentials (%j) the client warns even with debug off and never sends',
    async (opts) => {
      const { client, log } = clientFor(server().url, opts);
      client.critical('Unauthenticated');
      const r = await client.flush();
      expect(server().requests).toHaveLength(0);
      expect(r.sent + r.failed).toBe(0);
      expect(log.lines.some((l) => l.level === 'warn' && l.text.includes('client disabled'))).toBe(
        true,
      );
    },
  );
});

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
    expect(bodies()[0]?.tags).toEqual(['svc', 'api', 'env:prod', 'release:1.2.3', 'a', 'b']);
    expect(bodies()[1]?.tags).toEqual([
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
    const lines = bodies().map((b) => [b?.title, b?.line_number]);
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

describe('debug and logLocally', () => {
  it('debug logs redact keys, secrets and signatures, Error objects included', async () => {
    server().respond(() => ({
      status: 401,
      body: { message: 'Invalid or missing project API key.' },
    }));
    const { client, log } = clientFor(server().url, {
      ...SIGNING,
      debug: true,
      beforeSend: () => {
        throw new Error(`leak ${SIGNING.signingSecret} Authorization: Bearer svc_pub_abcdef123456`);
      },
    });
    client.major('x');
    await client.flush();
    const signed = clientFor(server().url, { ...SIGNING, debug: true });
    signed.client.major('y');
    await signed.client.flush();
    const all = JSON.stringify([...log.lines, ...signed.log.lines]);
    expect(all).toContain('svck_test***');
    expect(all).toContain('[REDACTED]');
    expect(all).toContain('SvcAuthError');
    expect(all).not.toContain(SIGNING.signingSecret);
    expect(all).not.toContain('0123456789abcdef');
    expect(all).not.toContain('svc_pub_abcdef');
    const sig = server().requests[0].headers['x-svc-signature'] as string;
    expect(all).not.toContain(sig);
  });

  it('logLocally runs the pipeline, logs the payload with debug off, sends nothing', async () => {
    const { client, log } = clientFor(server().url, {
      ...KEY,
      logLocally: true,
      environment: 'dev',
      beforeSend: (p) => ({ ...p, title: 'scrubbed' }),
    });
    client.major('dry run', 'details');
    const r = await client.flush();
    expect(server().requests).toHaveLength(0);
    expect(r.sent).toBe(1);
    const info = log.lines.filter((l) => l.level === 'info');
    expect(info).toHaveLength(1);
    expect(info[0].text).toContain('"title":"scrubbed"');
    expect(info[0].text).toContain('env:dev');
  });
});
