import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { report, type Service, spawnService, TASKS } from '../helpers.ts';
import { STORE_KIND } from '../store-kind.ts';

// Black-box, against the built service: rate headers on every answer once the project is known,
// lone surrogates, line_number bounds, stalled bodies and 413s that reach the client.
let svc: Service;
beforeAll(async () => {
  svc = await spawnService({ bodyTimeoutMs: 1000, secondProject: true });
});
afterAll(() => svc?.close());

const LIMIT = 'x-ratelimit-limit';
const REMAINING = 'x-ratelimit-remaining';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: { message: string };
}

/** node:http rather than fetch: a 413 may arrive while the body is still being sent. */
function send(
  body: Buffer | string,
  headers: Record<string, string>,
  opts: { agent?: Agent; path?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${svc.url}${opts.path ?? TASKS}`, {
      method: 'POST',
      agent: opts.agent,
      headers: { 'content-type': 'application/json', ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, json: JSON.parse(text) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('rate headers once the project is known (contract 8.2)', () => {
  it('on 404s, 422s and 403s of a valid key; never on a 401', async () => {
    const answers = [
      await fetch(`${svc.url}/api/v2/tasks`, { method: 'POST', headers: svc.bearer() }),
      await fetch(`${svc.url}/nowhere`, { headers: svc.bearer() }),
      await svc.post('{', svc.bearer()),
      await svc.post(report({ title: 'x'.repeat(300) }), svc.bearer()),
      await svc.post('{', svc.signed('{')),
      await svc.post(report({ title: 'Origin' }), {
        ...svc.bearer(svc.keys.restrictedKey),
        origin: 'https://evil.test',
      }),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 422, 422, 422, 403]);
    for (const r of answers) {
      expect(r.headers.get(LIMIT)).toBe('500');
      expect(Number(r.headers.get(REMAINING))).toBeGreaterThan(0);
    }
    const signed404 = await fetch(`${svc.url}/api/v2/tasks`, {
      method: 'POST',
      headers: svc.signed('{}'),
      body: '{}',
    });
    expect([signed404.status, signed404.headers.get(LIMIT)]).toEqual([404, '500']);
    for (const r of [
      await svc.post(report({ title: 'No key' })),
      await svc.post(report({ title: 'Wrong' }), svc.bearer(`svc_pub_${'0'.repeat(48)}`)),
      await fetch(`${svc.url}/api/v2/tasks`, { method: 'POST' }),
    ]) {
      expect(r.status === 401 || r.status === 404).toBe(true);
      expect(r.headers.get(LIMIT)).toBeNull();
    }
  });

  it('the remaining count is the project’s own, after its accepted reports', async () => {
    const before = Number((await svc.post('{', svc.bearer())).headers.get(REMAINING));
    expect((await svc.post(report({ title: 'Counted' }), svc.bearer())).status).toBe(201);
    const after = await fetch(`${svc.url}/api/v2/tasks`, { method: 'POST', headers: svc.bearer() });
    expect(Number(after.headers.get(REMAINING))).toBe(before - 1);
  });

  it('on a 413 with a bearer token; a signed 413 cannot be verified and carries none', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 'x');
    const bearer = await send(big, svc.bearer());
    expect([bearer.status, bearer.headers[LIMIT]]).toEqual([413, '500']);
    const signed = await send(big, svc.signed(big));
    expect([signed.status, signed.headers[LIMIT]]).toEqual([413, undefined]);
  });
});

describe('413 reaches a client that is still sending', () => {
  const big = Buffer.alloc(5_000_000, 'x');

  it('with keep-alive: the answer arrives and the next request is served', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 5; i++) {
        const r = await send(big, svc.bearer(), { agent });
        expect(r.status).toBe(413);
        expect(r.json.message).toMatch(/larger than 1048576 bytes/);
        const ok = await send(report({ title: `After 413 ${i}` }), svc.bearer(), { agent });
        expect(ok.status).toBe(201);
      }
    } finally {
      agent.destroy();
    }
  });

  it('with Connection: close', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await send(big, { ...svc.bearer(), connection: 'close' });
      expect(r.status).toBe(413);
      expect(typeof r.json.message).toBe('string');
    }
  });

  it('chunked, without Content-Length', async () => {
    const r = await new Promise<number>((resolve, reject) => {
      const req = request(`${svc.url}${TASKS}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...svc.bearer() },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write(Buffer.alloc(100_000, 'y'));
      req.end();
    });
    expect(r).toBe(413);
  });
});

describe('a stalled body', () => {
  it('is answered 408 with a JSON message and the connection closed (bodyTimeoutMs)', async () => {
    const started = Date.now();
    const { head, body, closed } = await new Promise<{
      head: string;
      body: string;
      closed: boolean;
    }>((resolve, reject) => {
      const socket = connect(Number(new URL(svc.url).port), '127.0.0.1');
      let text = '';
      socket.on('data', (c) => (text += c.toString()));
      socket.on('error', reject);
      socket.on('close', () => {
        const [h = '', b = ''] = text.split('\r\n\r\n');
        resolve({ head: h, body: b, closed: true });
      });
      socket.write(
        `POST ${TASKS} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Authorization: ${svc.bearer().authorization}\r\nContent-Length: 100\r\n\r\n{"severity":`,
      );
    });
    const elapsed = Date.now() - started;
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(head.toLowerCase()).toContain(`${LIMIT}: 500`);
    const payload = body.includes('{')
      ? body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1)
      : body;
    expect(JSON.parse(payload).message).toMatch(/did not arrive within 1 s/);
    expect(closed).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(900);
    const r = await svc.post(report({ title: 'After stall' }), svc.bearer());
    expect(r.status).toBe(201);
  });
});

describe('lone surrogates (replaced by U+FFFD before validation, dedup and storage)', () => {
  it('stores valid UTF-8 in every text field and tag, and dedups on what is stored', async () => {
    const raw = (title: string, extra = '') =>
      `{"severity":"major","title":"${title}","description":"d \\udfff e","tags":["t\\ud801",` +
      `"t\\udc02"],"file_name":"f\\ud800.ts"${extra}}`;
    const first = await svc.post(raw('Lone \\ud800'), svc.bearer());
    expect(first.status).toBe(201);
    const card = (await first.json()).data;
    expect(card.title).toBe('Lone \ufffd');
    expect(card.description).toBe('d \ufffd e');
    expect(card.tags).toEqual(['t\ufffd']);
    const second = await svc.post(raw('Lone \\udc00'), svc.bearer());
    expect([second.status, (await second.json()).deduplicated]).toEqual([200, true]);

    const { cards, variants } = await storedBytes(svc);
    expect(cards).toHaveLength(1);
    const strict = new TextDecoder('utf-8', { fatal: true });
    for (const value of Object.values(cards[0]!)) expect(() => strict.decode(value)).not.toThrow();
    expect(strict.decode(cards[0]!.t)).toBe('Lone \ufffd');
    expect(variants.length).toBeGreaterThan(0);
    for (const row of variants) {
      for (const value of Object.values(row))
        if (value) expect(() => strict.decode(value)).not.toThrow();
    }
  });
});

/** The stored bytes of the `Lone …` card and its variants, read from the database itself. */
async function storedBytes(service: Service) {
  // SQLite stores text as sent; PostgreSQL checks the encoding itself, and convert_to shows the bytes.
  const bytes = (column: string) =>
    STORE_KIND === 'postgres' ? `convert_to(${column}, 'UTF8')` : `CAST(${column} AS BLOB)`;
  const cardsSql = `SELECT ${bytes('title')} AS t, ${bytes('description')} AS d, ${bytes('tags::text')} AS g,
      ${bytes('file_name')} AS f FROM cards WHERE title LIKE 'Lone %'`;
  const variantsSql = `SELECT ${bytes('v.title')} AS t, ${bytes('v.description')} AS d,
      ${bytes('v.file_name')} AS f FROM variants v JOIN cards c ON c.id = v.card_id
      WHERE c.title LIKE 'Lone %' AND v.aggregate = 0`;
  if (STORE_KIND === 'postgres') {
    const client = new pg.Client({ connectionString: service.databaseUrl });
    await client.connect();
    try {
      const cards = (await client.query(cardsSql)).rows as Record<string, Buffer>[];
      const variants = (await client.query(variantsSql)).rows as Record<string, Buffer | null>[];
      return { cards, variants };
    } finally {
      await client.end();
    }
  }
  const db = new Database(join(service.dataDir, 'svc.sqlite'), { readonly: true });
  try {
    const sqliteSql = (sql: string) => sql.replace('tags::text', 'tags');
    return {
      cards: db.prepare(sqliteSql(cardsSql)).all() as Record<string, Buffer>[],
      variants: db.prepare(variantsSql).all() as Record<string, Buffer | null>[],
    };
  } finally {
    db.close();
  }
}

describe('line_number is a positive 32-bit integer (contract 2.1, spec maximum)', () => {
  it('2147483647 is kept; 2147483648, 2^63 and 1e300 are 422', async () => {
    const ok = await svc.post(report({ title: 'Max line', line_number: 2147483647 }), svc.bearer());
    expect(ok.status).toBe(201);
    expect((await ok.json()).data.line_number).toBe(2147483647);
    for (const line of ['2147483648', '9223372036854775808', '1e300']) {
      const r = await svc.post(
        `{"severity":"major","title":"Line ${line}","line_number":${line}}`,
        svc.bearer(),
      );
      expect(r.status, line).toBe(422);
      expect(Object.keys((await r.json()).errors)).toEqual(['line_number']);
    }
  });
});

describe('connection bounds', () => {
  let bounded: Service;
  beforeAll(async () => {
    bounded = await spawnService({ keepAliveTimeoutMs: 500, maxConnections: 2 });
  });
  afterAll(() => bounded?.close());

  /** A raw connection; `answer` sends one request and resolves with its status line. */
  const open = () => {
    const socket = connect(Number(new URL(bounded.url).port), '127.0.0.1');
    let text = '';
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    socket.on('data', (c) => (text += c.toString()));
    socket.on('error', () => {});
    const answer = async () => {
      socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      const deadline = Date.now() + 2000;
      while (!text.includes('{"ok":true}') && Date.now() < deadline) await sleep(10);
      return text.split('\r\n')[0];
    };
    return { socket, closed, answer };
  };

  it('an idle keep-alive connection is closed after keepAliveTimeoutMs', async () => {
    const conn = open();
    expect(await conn.answer()).toBe('HTTP/1.1 200 OK');
    const answeredAt = Date.now();
    const closedAt = await conn.closed;
    expect(closedAt - answeredAt).toBeGreaterThanOrEqual(400);
    expect(closedAt - answeredAt).toBeLessThan(3000);
  });

  it('connections past maxConnections are closed on arrival', async () => {
    const first = open();
    const second = open();
    expect(await first.answer()).toBe('HTTP/1.1 200 OK');
    expect(await second.answer()).toBe('HTTP/1.1 200 OK');
    const third = open();
    expect(await third.answer()).not.toBe('HTTP/1.1 200 OK');
    await third.closed;
    first.socket.destroy();
    second.socket.destroy();
    await Promise.all([first.closed, second.closed]);
    const fourth = open();
    expect(await fourth.answer()).toBe('HTTP/1.1 200 OK');
    fourth.socket.destroy();
  });
});
