import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, type Service, spawnService } from '../helpers.ts';
import { STORE_KIND } from '../store-kind.ts';

// Black-box: contract sections 4, 11 and 12 against a real service process.
let svc: Service;
beforeAll(async () => {
  svc = await spawnService();
});
afterAll(() => svc?.close());

describe('verification flows (section 12)', () => {
  it('first POST is 201, an identical second is 200 deduplicated with a higher count', async () => {
    const body = report({ title: 'Flow 1', description: 'boom' });
    const a = await svc.post(body, svc.bearer());
    expect(a.status).toBe(201);
    const first = await a.json();
    expect(first).toMatchObject({
      deduplicated: false,
      data: { occurrence_count: 1, status: 'todo' },
    });
    const b = await svc.post(body, svc.bearer());
    expect(b.status).toBe(200);
    const second = await b.json();
    expect(second.deduplicated).toBe(true);
    expect(second.data.id).toBe(first.data.id);
    expect(second.data.occurrence_count).toBe(2);
    expect(Date.parse(second.data.last_seen_at)).toBeGreaterThanOrEqual(
      Date.parse(first.data.created_at),
    );
    expect(a.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('X-Svc-Hide-Response keeps statuses and flags and withholds data', async () => {
    const body = report({ title: 'Flow 2 hidden' });
    const h = { ...svc.bearer(), 'x-svc-hide-response': 'true' };
    const a = await svc.post(body, h);
    expect([a.status, await a.json()]).toEqual([201, { deduplicated: false }]);
    const b = await svc.post(body, h);
    expect([b.status, await b.json()]).toEqual([200, { deduplicated: true }]);
  });

  it('a card carries every section 2.2 field', async () => {
    const r = await svc.post(report({ title: 'Shape', tags: ['a'] }), svc.bearer());
    const { data } = await r.json();
    for (const f of [
      'id',
      'title',
      'description',
      'description_type',
      'priority',
      'severity',
      'tags',
      'status',
      'occurrence_count',
      'created_at',
      'last_seen_at',
    ]) {
      expect(data).toHaveProperty(f);
    }
    expect(new Date(data.created_at).toISOString()).toBe(data.created_at);
  });
});

describe('deduplication rules', () => {
  it('an equal non-blank description matches a card with another title; title and description stay frozen', async () => {
    const a = await (
      await svc.post(
        report({ title: 'Desc A', description: 'same body', tags: ['x'] }),
        svc.bearer(),
      )
    ).json();
    const r = await svc.post(
      report({ title: 'Desc B', description: 'same body', tags: 'y, x' }),
      svc.bearer(),
    );
    expect(r.status).toBe(200);
    const b = await r.json();
    expect(b.data).toMatchObject({
      id: a.data.id,
      title: 'Desc A',
      description: 'same body',
      tags: ['x', 'y'],
    });
  });

  it('an equal title matches whatever the description', async () => {
    const a = await (
      await svc.post(report({ title: 'Same title', description: 'one' }), svc.bearer())
    ).json();
    const b = await (
      await svc.post(report({ title: 'Same title', description: 'two' }), svc.bearer())
    ).json();
    expect(b.data.id).toBe(a.data.id);
    expect(b.data.description).toBe('one');
  });

  it('blank descriptions never match', async () => {
    const a = await svc.post(report({ title: 'Blank 1', description: '   ' }), svc.bearer());
    const b = await svc.post(report({ title: 'Blank 2', description: '   ' }), svc.bearer());
    expect([a.status, b.status]).toEqual([201, 201]);
  });

  it('the scope is the project', async () => {
    const other = await spawnService();
    try {
      const body = report({ title: 'Scoped' });
      expect((await svc.post(body, svc.bearer())).status).toBe(201);
      expect((await other.post(body, other.bearer())).status).toBe(201);
    } finally {
      await other.close();
    }
  });
});

describe('body handling', () => {
  it('ignores unknown and server-fixed keys, detects description_type', async () => {
    const r = await svc.post(
      JSON.stringify({
        severity: 'minor',
        title: 'Fixed',
        status: 'done',
        description_type: 'plain',
        assignee: 'bob',
        description: '{"a":1}',
      }),
      svc.bearer(),
    );
    expect(r.status).toBe(201);
    const { data } = await r.json();
    expect(data).toMatchObject({ status: 'todo', description_type: 'json', priority: 'medium' });
    expect(data).not.toHaveProperty('assignee');
  });

  it('derives the title from the first non-empty description line, else Untitled error', async () => {
    const a = await (
      await svc.post(
        JSON.stringify({
          severity: 'major',
          description: '\n  \nTypeError: x\n    at f (a.js:1:2)',
        }),
        svc.bearer(),
      )
    ).json();
    expect(a.data).toMatchObject({ title: 'TypeError: x', description_type: 'code' });
    const b = await svc.post(JSON.stringify({ severity: 'major' }), svc.bearer());
    expect((await b.json()).data.title).toBe('Untitled error');
  });

  it('normalises CSV tags (trimmed, de-duplicated)', async () => {
    const r = await svc.post(report({ title: 'CSV', tags: ' a , b,a, c ' }), svc.bearer());
    expect((await r.json()).data.tags).toEqual(['a', 'b', 'c']);
  });

  it('validation failures are 422 with field errors', async () => {
    const r = await svc.post(
      JSON.stringify({
        severity: 'urgent',
        priority: 'max',
        title: 't'.repeat(256),
        description: 'd'.repeat(65536),
        tags: ['t'.repeat(51)],
        file_name: 'f'.repeat(256),
        line_number: 0,
      }),
      svc.bearer(),
    );
    expect(r.status).toBe(422);
    const body = await r.json();
    expect(typeof body.message).toBe('string');
    expect(Object.keys(body.errors).sort()).toEqual([
      'description',
      'file_name',
      'line_number',
      'priority',
      'severity',
      'tags',
      'title',
    ]);
  });

  it('accepts fields exactly at their limits', async () => {
    const r = await svc.post(
      report({
        title: 'é'.repeat(255),
        description: 'd'.repeat(65535),
        tags: ['t'.repeat(50)],
        file_name: 'f'.repeat(255),
        line_number: 1,
      }),
      svc.bearer(),
    );
    expect(r.status).toBe(201);
  });
});

describe('variants (section 2.4)', () => {
  it('keeps one row per identity with its own count', async () => {
    const base = { title: 'Variants', description: 'v' };
    await svc.post(report(base), svc.bearer());
    await svc.post(report(base), svc.bearer());
    await svc.post(report({ ...base, file_name: 'src/a.ts' }), svc.bearer());
    await svc.post(report({ ...base, file_name: 'src/a.ts', line_number: 3 }), svc.bearer());
    const card = (await svc.cards()).find((c) => c.title === 'Variants')!;
    expect(card.occurrence_count).toBe(4);
    expect(card.variants.map((v) => [v.file_name, v.line_number, v.count]).sort()).toEqual(
      [
        [null, null, 2],
        ['src/a.ts', 3, 1],
        ['src/a.ts', null, 1],
      ].sort(),
    );
  });
});

describe('U+0000 in text fields', () => {
  it('is accepted and does not disturb reports answered with it', async () => {
    const nul = { title: 'Nul\u0000title', description: 'x\u0000y', tags: ['t\u0000'] };
    const [withNul, plain, again] = await Promise.all([
      svc.post(report(nul), svc.bearer()),
      svc.post(report({ title: 'Beside the nul report' }), svc.bearer()),
      svc.post(report(nul), svc.bearer()),
    ]);
    expect([withNul.status, plain.status, again.status]).toEqual([201, 201, 200]);
    // PostgreSQL text cannot hold U+0000: that store keeps U+FFFD in its place.
    const kept = STORE_KIND === 'postgres' ? '\uFFFD' : '\u0000';
    const card = (await svc.cards()).find((c) => c.title === `Nul${kept}title`)!;
    expect([card.description, card.tags, card.occurrence_count]).toEqual([
      `x${kept}y`,
      [`t${kept}`],
      2,
    ]);
  });
});

describe('large line numbers', () => {
  it('the largest line number of the spec (2^31 - 1) is kept as sent', async () => {
    const line = 2 ** 31 - 1;
    const r = await svc.post(
      report({ title: `Line ${line}`, file_name: 'big.ts', line_number: line }),
      svc.bearer(),
    );
    expect(r.status).toBe(201);
    expect((await r.json()).data.line_number).toBe(line);
  });
});
