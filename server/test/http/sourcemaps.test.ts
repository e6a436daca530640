import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, type Service, SOURCEMAPS, signHeaders, spawnService, TASKS } from '../helpers.ts';
import { type BuiltChunk, buildApp } from '../sourcemaps/build-fixture.ts';
import { stackOf, uploadBody } from '../sourcemaps/stack.ts';

// Black-box, against the built service on 127.0.0.1 (SQLite here, PostgreSQL in server-pg):
// signed uploads over real HTTP, and reports mapped through them at ingestion.
let svc: Service;
let first: BuiltChunk;
let second: BuiltChunk;
beforeAll(async () => {
  [svc, first, second] = await Promise.all([
    spawnService({ secondProject: true }),
    buildApp(),
    buildApp({ extra: 'export const unrelated = () => 42;' }),
  ]);
});
afterAll(() => svc?.close());

const reportOf = (description: string, fields: Record<string, unknown> = {}) =>
  report({ title: 'Order failed', description, ...fields });

/** A new project of the fixture's account with a secret and a publishable key (real CLI). */
async function newProject(name: string) {
  const json = async (...args: string[]) => JSON.parse((await svc.cli(...args, '--json')).stdout);
  const project = await json(
    'project',
    'create',
    '--account',
    String(svc.accountId),
    '--name',
    name,
  );
  const p = String(project.id);
  const secret = await json('key', 'create', '--project', p, '--type', 'secret', '--name', 'build');
  const pub = await json('key', 'create', '--project', p, '--type', 'publishable', '--name', 'web');
  const url = svc.url;
  return {
    id: project.id as number,
    upload: (body: string) =>
      fetch(url + SOURCEMAPS, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signHeaders(
            body,
            secret.signingSecret,
            secret.keyId,
            Math.floor(Date.now() / 1000),
            SOURCEMAPS,
          ),
        },
        body,
      }),
    report: (body: string) => svc.post(body, svc.bearer(pub.token)),
    cards: async () =>
      JSON.parse((await svc.cli('cards', 'list', '--project', p, '--json')).stdout) as Awaited<
        ReturnType<Service['cards']>
      >,
  };
}

describe('POST /api/v1/sourcemaps', () => {
  it('stores a signed upload; the same map again is a no-op; another map of the same release and path replaces it', async () => {
    const body = uploadBody(first, 'up-1', { debug_id: '8F1B6A52-2C3E-4BD8-9D5E-0A4C6F3B1E27' });
    const created = await svc.upload(body);
    expect(created.status).toBe(201);
    const answer = await created.json();
    expect(answer).toEqual({
      created: true,
      replaced: false,
      data: {
        id: expect.any(Number),
        release: 'up-1',
        path: first.path,
        debug_id: '8f1b6a52-2c3e-4bd8-9d5e-0a4c6f3b1e27',
        bytes: Buffer.byteLength(body),
        sources: 3,
        uploaded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    const again = await svc.upload(body);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ...answer, created: false });
    const other = await svc.upload(
      JSON.stringify({ release: 'up-1', path: first.path, map: second.map }),
    );
    expect(other.status).toBe(201);
    expect(await other.json()).toMatchObject({
      created: true,
      replaced: true,
      data: { id: answer.data.id, release: 'up-1', debug_id: null },
    });
  });

  it("refuses a publishable key (403), a bad or missing signature and one over the reports' path (401)", async () => {
    const body = uploadBody(first, 'auth-1');
    const bearer = await svc.upload(body, svc.bearer());
    expect(bearer.status).toBe(403);
    expect(await bearer.json()).toEqual({
      message: 'Source maps are uploaded with a secret key (signed), never a publishable key.',
    });
    const now = Math.floor(Date.now() / 1000);
    const cases = [
      {},
      svc.bearer(`svc_pub_${'0'.repeat(48)}`),
      signHeaders(body, svc.keys.signingSecret, svc.keys.keyId, now, TASKS),
      signHeaders(body, 'svc_sec_wrong', svc.keys.keyId, now, SOURCEMAPS),
      signHeaders(body, svc.keys.signingSecret, svc.keys.keyId, now - 3600, SOURCEMAPS),
    ];
    for (const headers of cases) {
      const r = await svc.upload(body, headers);
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({ message: 'Invalid or missing project API key.' });
    }
    const listed = await svc.cli(
      'sourcemaps',
      'list',
      '--project',
      String(svc.projectId),
      '--release',
      'auth-1',
      '--json',
    );
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it('answers a malformed map 422 naming the field, never a 5xx', async () => {
    const cases: [string, Record<string, string[]>][] = [
      ['{"release":', { body: ['The body must be a JSON object.'] }],
      [
        JSON.stringify({
          release: 'x',
          path: 'a.js',
          map: { version: 3, sources: ['../../../x/../../etc/passwd'], mappings: 'AAAA' },
        }),
        {
          'map.sources': [
            'A source may not contain a ".." segment: "../../../x/../../etc/passwd".',
          ],
        },
      ],
      [
        JSON.stringify({
          release: 'x',
          path: 'a.js',
          map: { version: 3, sources: ['a.ts'], mappings: 'AAAA,;;!' },
        }),
        {
          'map.mappings': [
            'The mappings do not decode: not a base64 VLQ character at character 7.',
          ],
        },
      ],
    ];
    for (const [body, errors] of cases) {
      const r = await svc.upload(body);
      expect(r.status, body.slice(0, 40)).toBe(422);
      expect((await r.json()).errors).toEqual(errors);
    }
  });
});

describe('a report whose frames point into an uploaded chunk', () => {
  it('is mapped before deduplication: title, description frames, file_name and line_number', async () => {
    expect((await svc.upload(uploadBody(first, 'map-1'))).status).toBe(201);
    const raw = stackOf(first, 'boom');
    expect(raw).toMatch(
      /^Error: Order boom failed\n {4}at d \(https:\/\/app\.example\/assets\/main-\w+\.js:1:\d+\)/,
    );
    const r = await svc.post(
      reportOf(raw.replaceAll('https://app.example/', ''), {
        tags: ['release:map-1'],
        file_name: first.path,
        line_number: 1,
      }),
      svc.bearer(),
    );
    expect(r.status).toBe(201);
    const card = (await svc.cards()).find((c) => c.tags.includes('release:map-1'))!;
    expect(card.title).toBe('Order failed');
    expect(card.description).toBe(
      'Error: Order boom failed\n    at loadOrder (src/orders.ts:6:11)\n    at Object.start [as start] (src/main.ts:3:10)',
    );
    expect(card.description_type).toBe('code');
    expect(card.file_name).toBe('src/orders.ts');
    expect(card.line_number).toBe(6);
    expect(card.variants).toHaveLength(1);
  });

  it('from two builds (new chunk hashes, new release) is one card and one variant', async () => {
    expect(first.path).not.toBe(second.path);
    const project = await newProject('Two builds');
    expect((await project.upload(uploadBody(first, 'two-1'))).status).toBe(201);
    expect((await project.upload(uploadBody(second, 'two-2'))).status).toBe(201);
    const statuses = [];
    for (const [chunk, release] of [
      [first, 'two-1'],
      [second, 'two-2'],
    ] as const) {
      const r = await project.report(
        reportOf(stackOf(chunk, 'boom'), { tags: [`release:${release}`], file_name: chunk.path }),
      );
      statuses.push(r.status);
    }
    expect(statuses).toEqual([201, 200]);
    const cards = await project.cards();
    expect(cards).toHaveLength(1);
    expect(cards[0]!.occurrence_count).toBe(2);
    expect(cards[0]!.variants).toHaveLength(1);
    expect(cards[0]!.variants[0]!.count).toBe(2);
    expect(cards[0]!.file_name).toBe('src/orders.ts');
  });

  it("keeps a release's frames as sent when only one other build's map names the chunk; a report with no release, or two builds' same map, map it", async () => {
    const project = await newProject('Another release');
    expect((await project.upload(uploadBody(first, 'other-1'))).status).toBe(201);
    const raw = stackOf(first, 'boom');
    const of = (title: string, tags: string[]) =>
      reportOf(raw, { title, tags, file_name: first.path });
    // A build that uploaded nothing: the chunk's name may be the same (index.js), its lines not.
    expect((await project.report(of('Another build', ['release:other-2']))).status).toBe(201);
    expect((await project.report(of('No release', []))).status).toBe(201);
    const cards = await project.cards();
    const unmapped = cards.find((c) => c.title === 'Another build')!;
    expect(unmapped.description).toBe(raw);
    expect(unmapped.file_name).toBe(first.path);
    const mapped = cards.find((c) => c.title === 'No release')!;
    expect(mapped.file_name).toBe('src/orders.ts');
    expect(mapped.description).toContain('at loadOrder (src/orders.ts:6:11)');
    // Two builds made the same content: unchanged, so a third build's report is mapped through it
    // (and so joins the mapped card, not the one left as sent).
    expect((await project.upload(uploadBody(first, 'other-3'))).status).toBe(201);
    expect((await project.report(of('Unchanged chunk', ['release:other-4']))).status).toBe(200);
    const after = await project.cards();
    expect(after.find((c) => c.id === mapped.id)!.occurrence_count).toBe(2);
    expect(after.find((c) => c.id === unmapped.id)!.occurrence_count).toBe(1);
  });

  it("maps a dependency's frame under node_modules/, and keeps frames as sent in a project without that map", async () => {
    const project = await newProject('Dependency');
    expect((await project.upload(uploadBody(first, 'keep-1'))).status).toBe(201);
    const raw = stackOf(first, '');
    const r = await project.report(
      reportOf(raw, { title: 'Dependency', tags: ['release:keep-1'], file_name: first.path }),
    );
    expect(r.status).toBe(201);
    const [card] = await project.cards();
    expect(card!.description!.split('\n').slice(0, 3)).toEqual([
      'TypeError: no id',
      '    at i.checkId (node_modules/tiny-lib/index.js:2:18)',
      '    at loadOrder (src/orders.ts:4:3)',
    ]);
    expect(card!.file_name).toBe('node_modules/tiny-lib/index.js');
    // Maps belong to their project: the same chunk's frames stay as sent in another one.
    const other = await newProject('Without maps');
    const unknown = stackOf(second, 'boom');
    expect((await other.report(reportOf(unknown, { tags: ['release:two-2'] }))).status).toBe(201);
    const [kept] = await other.cards();
    expect(kept!.description).toBe(unknown);
  });
});
