import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, type Service, SOURCEMAPS, signHeaders, spawnService } from '../helpers.ts';
import { type BuiltChunk, buildApp } from '../sourcemaps/build-fixture.ts';
import { uploadBody } from '../sourcemaps/stack.ts';

// The limits of source-map uploads, against the built service with small limits: bodies past the
// per-file limit (however they are sent), a project past its storage limit, the releases kept, the
// bodies held at once, and a map that decodes to too many segments. Then, on default limits, a
// hostile upload while reports keep being answered.
const FILE_MAX = 300_000;
let svc: Service;
let app: BuiltChunk;
beforeAll(async () => {
  [svc, app] = await Promise.all([
    spawnService({
      sourceMaps: {
        fileBytesMax: FILE_MAX,
        projectBytesMax: 500_000,
        releasesKept: 2,
        segmentsMax: 5_000,
        uploadBudgetBytes: FILE_MAX,
      },
    }),
    buildApp(),
  ]);
});
afterAll(() => svc?.close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: { message: string; errors?: Record<string, string[]> };
}

/**
 * Starts an upload signed over `body` whose headers declare `declared` bytes (or none: chunked),
 * writing its first `first` bytes (all by default); `finish()` writes the rest. Resolves with the
 * answer, which may come before the body is sent (a 413, a 503).
 */
function rawUpload(opts: {
  body: Buffer;
  declared?: number;
  first?: number;
  headers?: Record<string, string>;
}) {
  const { body } = opts;
  const ts = Math.floor(Date.now() / 1000);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    ...(opts.headers ?? signHeaders(body, svc.keys.signingSecret, svc.keys.keyId, ts, SOURCEMAPS)),
  };
  if (opts.declared !== undefined) headers['content-length'] = opts.declared;
  const req = request(svc.url + SOURCEMAPS, { method: 'POST', headers });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, json: JSON.parse(text) }),
      );
    });
    req.on('error', reject);
  });
  const first = opts.first ?? body.length;
  req.write(body.subarray(0, first));
  if (first === body.length) req.end();
  return { answer, req, finish: () => req.end(body.subarray(first)) };
}

const filler = (bytes: number) => Buffer.alloc(bytes, 'x');

const list = async (...args: string[]) =>
  JSON.parse(
    (await svc.cli('sourcemaps', 'list', '--project', String(svc.projectId), '--json', ...args))
      .stdout,
  ) as {
    release: string;
    path: string;
  }[];

describe('upload limits', () => {
  it('answers a body past the per-file limit 413, declared, chunked or 100 MB, without reading it all', async () => {
    const declared = await rawUpload({ declared: FILE_MAX + 10, body: filler(FILE_MAX + 10) })
      .answer;
    expect(declared.status).toBe(413);
    expect(declared.json).toEqual({
      message: `The request body is larger than ${FILE_MAX} bytes.`,
    });
    const chunked = await rawUpload({ body: filler(FILE_MAX * 2) }).answer;
    expect(chunked.status).toBe(413);
    // 100 MB declared, 64 KiB sent: the answer comes at once and the connection closes.
    const huge = rawUpload({
      declared: 100 * 1024 * 1024,
      body: filler(128 * 1024),
      first: 64 * 1024,
    });
    const answer = await huge.answer;
    huge.req.destroy();
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect((await svc.post(report({ title: 'After the 413s' }), svc.bearer())).status).toBe(201);
  });

  it('refuses a publishable key (403) or an unknown key id (401) before reading the body', async () => {
    const unknown = {
      'x-svc-key-id': 'svck_unknown',
      'x-svc-timestamp': '1',
      'x-svc-signature': '0'.repeat(64),
    };
    const cases: [Record<string, string>, number][] = [
      [svc.bearer(), 403],
      [unknown, 401],
    ];
    for (const [headers, status] of cases) {
      // 64 KiB of a declared 250 KB sent, the rest held back: the answer comes without it.
      const held = rawUpload({
        body: filler(250_000),
        declared: 250_000,
        first: 64 * 1024,
        headers,
      });
      const answer = await held.answer;
      held.req.destroy();
      expect(answer.status).toBe(status);
      expect(answer.headers.connection).toBe('close');
    }
  });

  it('holds at most the body budget: a second upload while one is being read is 503 with Retry-After', async () => {
    const body = Buffer.from(uploadBody(app, 'budget-1'));
    const padded = Buffer.concat([body, Buffer.alloc(FILE_MAX - 1000 - body.length, ' ')]);
    const slow = rawUpload({ body: padded, declared: padded.length, first: 1000 });
    const busy = await rawUpload({ body: filler(50_000), declared: 50_000 }).answer;
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('2');
    expect(busy.headers.connection).toBe('close');
    expect(busy.json.message).toBe('Busy with other uploads; retry in 2 s.');
    slow.finish();
    expect((await slow.answer).status).toBe(201);
    const after = await svc.upload(uploadBody(app, 'budget-2'));
    expect(after.status).toBe(201);
  });

  it('refuses a map that decodes to more segments than the limit (422)', async () => {
    const map = {
      version: 3,
      sources: ['a.ts'],
      names: [],
      mappings: `${'AAAA,'.repeat(5_000)}AAAA`,
    };
    const r = await svc.upload(JSON.stringify({ release: 'seg-1', path: 'a.js', map }));
    expect(r.status).toBe(422);
    expect((await r.json()).errors).toEqual({
      'map.mappings': ['The mappings decode to more than 5000 segments.'],
    });
  });

  it('keeps the maps of the last releases only, and refuses a project past its storage limit (413) writing nothing', async () => {
    for (const release of ['keep-1', 'keep-2', 'keep-3']) {
      expect(
        (await svc.upload(uploadBody(app, release, { path: `assets/${release}.js` }))).status,
      ).toBe(201);
    }
    expect((await list()).map((m) => m.release).sort()).toEqual(['keep-2', 'keep-3']);
    // Each map is about 100 KB as uploaded; 500,000 bytes hold a few distinct ones.
    let refused: { i: number; answer: Response } | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      // A new text of the project's own src/orders.ts: a distinct map, counted in full.
      const [dependency, , main] = app.map.sourcesContent as string[];
      const map = {
        ...app.map,
        sourcesContent: [dependency, `// v${i}\n${'x'.repeat(100_000)}`, main],
      };
      const r = await svc.upload(
        JSON.stringify({ release: 'keep-3', path: `assets/full-${i}.js`, map }),
      );
      if (r.status === 413) refused = { i, answer: r };
      else expect(r.status).toBe(201);
    }
    expect(refused?.i).toBeGreaterThan(0);
    expect((await refused!.answer.json()).message).toMatch(
      /^Storing this map would take the project's source maps to \d+ bytes, over its limit of 500000\./,
    );
    const paths = (await list()).map((m) => m.path);
    expect(paths).toContain(`assets/full-${refused!.i - 1}.js`);
    expect(paths).not.toContain(`assets/full-${refused!.i}.js`);
  });
});

describe('a hostile upload', () => {
  let open: Service;
  beforeAll(async () => {
    open = await spawnService();
  });
  afterAll(() => open?.close());

  it('(32 MiB of mappings decoding to millions of segments) is refused while reports keep being answered', async () => {
    const mappings = 'AAAA,'.repeat(6_500_000);
    const body = JSON.stringify({
      release: 'hostile',
      path: 'a.js',
      map: { version: 3, sources: ['a.ts'], mappings },
    });
    expect(body.length).toBeLessThan(33_554_432);
    let settled = false;
    const upload = open.upload(body).then(async (r) => {
      settled = true;
      return { status: r.status, json: await r.json() };
    });
    const during: number[] = [];
    for (let i = 0; !settled && i < 10_000; i++) {
      const r = await open.post(report({ title: `During ${i % 3}` }), open.bearer());
      if (!settled) during.push(r.status);
    }
    const answer = await upload;
    expect(answer.status).toBe(422);
    expect(answer.json.errors).toEqual({
      'map.mappings': ['The mappings decode to more than 4000000 segments.'],
    });
    // Answered between the upload's slices: the service never stopped serving reports.
    expect(during.length).toBeGreaterThanOrEqual(3);
    expect(during.every((status) => status === 201 || status === 200)).toBe(true);
  });
});
