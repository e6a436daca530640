import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { report, type Service, spawnService } from '../helpers.ts';

// Black-box: the bounds on tags (spec: maxItems of the tags array, x-svc-limits.tagsPerCard).
let svc: Service;
beforeAll(async () => {
  svc = await spawnService();
});
afterAll(() => svc?.close());

const distinct = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('tags', () => {
  it('a report with more than 100 tags gets 422 naming the tags field (array or CSV)', async () => {
    for (const tags of [distinct('a', 101), distinct('c', 101).join(',')]) {
      const r = await svc.post(report({ title: 'Too many tags', tags }), svc.bearer());
      const body = await r.json();
      expect(r.status).toBe(422);
      expect(body.message).toBe('The given data was invalid.');
      expect(body.errors.tags).toContain('The tags field must NOT have more than 100 items.');
    }
    // 100 is fine, and a CSV with repeats counts each tag once.
    const ok = await svc.post(
      report({ title: 'Enough tags', tags: distinct('b', 100) }),
      svc.bearer(),
    );
    expect(ok.status).toBe(201);
    const csv = [...distinct('d', 100), ...distinct('d', 100)].join(',');
    const okCsv = await svc.post(report({ title: 'CSV repeats', tags: csv }), svc.bearer());
    expect(okCsv.status).toBe(201);
  });

  it('a card fed many distinct tags keeps the first 200', async () => {
    let last: { tags: string[] } | undefined;
    for (let i = 0; i < 5; i++) {
      const r = await svc.post(
        report({ title: 'Tag magnet', tags: distinct(`r${i}-`, 100) }),
        svc.bearer(),
      );
      expect(r.status === 201 || r.status === 200).toBe(true);
      last = (await r.json()).data;
    }
    const expected = [...distinct('r0-', 100), ...distinct('r1-', 100)];
    expect(last!.tags).toEqual(expected);
    const card = (await svc.cards()).find((c) => c.title === 'Tag magnet');
    expect(card!.tags).toEqual(expected);
    expect(card!.occurrence_count).toBe(5);
  });
});
