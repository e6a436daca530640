import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Service, spawnService, TASKS } from '../helpers.ts';

// Black-box, raw bytes against the built service: the answers Node's HTTP server writes before any
// route runs are JSON `{ message }` too (contract 7), each with a Content-Type, a Content-Length
// that matches, and the connection closed where the request cannot be trusted further.
let svc: Service;
beforeAll(async () => {
  svc = await spawnService({ headersTimeoutMs: 1000 });
});
afterAll(() => svc?.close());

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: string;
  closed: boolean;
}

/** Writes `text` on a fresh connection; resolves with the first answer once the server closes or 3 s pass. */
function exchange(text: string, waitMs = 3000): Promise<Raw> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(svc.url).port), '127.0.0.1');
    let out = '';
    let closed = false;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const [head = '', ...rest] = out.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: rest.join('\r\n\r\n'),
        closed,
      });
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (c) => (out += c.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      done();
    });
    socket.write(text);
  });
}

function expectJson(raw: Raw, status: number, message: RegExp) {
  expect(raw.status).toBe(status);
  expect(raw.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(Number(raw.headers['content-length'])).toBe(Buffer.byteLength(raw.body));
  expect(JSON.parse(raw.body)).toEqual({ message: expect.stringMatching(message) });
}

const post = (headers: string, body = '{}') =>
  `POST ${TASKS} HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

describe('answers Node would write with an empty body', () => {
  it('HTTP/1.1 without Host: 400 JSON, connection closed', async () => {
    const raw = await exchange(post(''));
    expectJson(raw, 400, /no Host header/);
    expect(raw.closed).toBe(true);
  });

  it('HTTP/1.0 may omit Host: answered by the route', async () => {
    const raw = await exchange(`POST ${TASKS} HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}`);
    expectJson(raw, 401, /Invalid or missing project API key/);
  });

  it('an unknown Expect: 417 JSON', async () => {
    const raw = await exchange(post('Host: x\r\nExpect: tea\r\n'));
    expectJson(raw, 417, /Expect header is not supported/);
  });

  it('Expect: 100-continue still goes through to the route', async () => {
    const raw = await exchange(post('Host: x\r\nExpect: 100-continue\r\n'), 1500);
    expect(raw.status).toBe(100);
    expect(raw.body).toContain('HTTP/1.1 401 Unauthorized');
  });
});

describe('requests Node cannot parse (clientError)', () => {
  const cases: [string, string, number, RegExp][] = [
    ['a garbage request line', 'GARBAGE\r\n\r\n', 400, /could not be parsed/],
    ['an unknown method', `BREW ${TASKS} HTTP/1.1\r\nHost: x\r\n\r\n`, 400, /could not be parsed/],
    [
      'a header name with a space',
      'GET /health HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n',
      400,
      /could not be parsed/,
    ],
    [
      'a non-numeric Content-Length',
      post('Host: x\r\nContent-Length: abc\r\n', ''),
      400,
      /could not be parsed/,
    ],
    [
      'both Transfer-Encoding and Content-Length',
      post('Host: x\r\nTransfer-Encoding: chunked\r\n'),
      400,
      /could not be parsed/,
    ],
    [
      '20 kB of headers',
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      /too large/,
    ],
  ];
  for (const [name, text, status, message] of cases) {
    it(`${name}: ${status} JSON, connection closed`, async () => {
      const raw = await exchange(text);
      expectJson(raw, status, message);
      expect(raw.closed).toBe(true);
    });
  }

  it('headers that stall past headersTimeoutMs: 408 JSON, connection closed', async () => {
    const raw = await exchange(`POST ${TASKS} HTTP/1.1\r\nHost: x\r\n`, 5000);
    expectJson(raw, 408, /headers did not arrive in time/);
    expect(raw.closed).toBe(true);
  });
});

describe("a body whose framing breaks after the route began (clientError on a route's request)", () => {
  const chunked = (auth: string) =>
    `POST ${TASKS} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
  const report = JSON.stringify({ severity: 'major', title: 'Never stored' });
  const cases: [string, () => string[], RegExp][] = [
    ['a malformed chunk size', () => [chunked(''), 'zz\r\n{}\r\n0\r\n\r\n'], /chunked framing/],
    [
      'a 20 kB chunk extension',
      () => [chunked(''), `2;${'x'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`],
      /chunked framing/,
    ],
    ['a chunk without its CRLF', () => [chunked(''), `2\r\n{}XX0\r\n\r\n`], /could not be parsed/],
    [
      'a good chunk of a signed-in report, then a malformed size, in a later packet',
      () => [
        chunked(`Authorization: Bearer ${svc.keys.apiKey}\r\n`),
        `${report.length.toString(16)}\r\n${report}\r\n`,
        'not-hex\r\n',
      ],
      /chunked framing/,
    ],
    [
      'a malformed chunk size on a board route',
      () => [
        'POST /board/sign-in HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
        'zz\r\n',
      ],
      /chunked framing/,
    ],
  ];
  for (const [name, parts, message] of cases) {
    it(`${name}: 400 JSON before the connection closes, nothing stored`, async () => {
      const [first = '', ...rest] = parts();
      const socket = connect(Number(new URL(svc.url).port), '127.0.0.1');
      let out = '';
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('data', (c) => (out += c.toString()));
      socket.on('error', () => {});
      socket.write(first);
      // The route has the request (and is reading its body) before the bad bytes arrive.
      for (const part of rest) {
        await new Promise((r) => setTimeout(r, 150));
        socket.write(part);
      }
      await Promise.race([closed, new Promise((r) => setTimeout(r, 3000))]);
      socket.destroy();
      const [head = '', body = ''] = out.split('\r\n\r\n');
      const raw: Raw = {
        status: Number(head.split(' ')[1]),
        headers: Object.fromEntries(
          head
            .split('\r\n')
            .slice(1)
            .map((l) => [
              l.slice(0, l.indexOf(':')).toLowerCase(),
              l.slice(l.indexOf(':') + 1).trim(),
            ]),
        ),
        body,
        closed: true,
      };
      expectJson(raw, 400, message);
      expect(raw.headers.connection).toBe('close');
      expect((await svc.cards()).map((c) => c.title)).not.toContain('Never stored');
    });
  }
});
