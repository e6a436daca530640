import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTriage, type Triage } from './triage-fixture.ts';

// Triage's forms over real HTTP (see triage-fixture.ts): the form token every status POST needs,
// bad input, the list's bulk form, the status filter and the counts per status.
let t: Triage;
beforeAll(async () => {
  t = await startTriage();
});
afterAll(() => t?.close());

describe('status POSTs', () => {
  it('without the form token are refused with 403 and change nothing', async () => {
    const { data } = await t.report('Guarded card');
    for (const [extra, headers] of [
      [[], {}],
      [[['csrf', '0'.repeat(64)]], {}],
      [[['csrf', t.csrf.slice(1)]], {}],
      [[['csrf', t.csrf]], { 'sec-fetch-site': 'cross-site' }],
      [[['csrf', t.csrf]], { origin: 'https://evil.test' }],
    ] as [[string, string][], Record<string, string>][]) {
      const res = await t.post(
        `/board/projects/${t.projectId}/cards/${data.id}/status`,
        [['status', 'done'], ...extra],
        headers,
      );
      expect(res.status, JSON.stringify([extra, headers])).toBe(403);
      expect(await res.text()).toContain('nothing changed');
      const bulk = await t.post(
        `/board/projects/${t.projectId}/cards/status`,
        [['status', 'done'], ['card', String(data.id)], ...extra],
        headers,
      );
      expect(bulk.status).toBe(403);
    }
    expect(await t.cardOf(data.id)).toMatchObject({ status: 'todo' });
    const html = await (await t.get(`/board/projects/${t.projectId}/cards/${data.id}`)).text();
    expect(html).toContain('No status changes yet.');
    // Without a session nothing gets in; with an admin token as t.bearer (no cookie) no form token
    // is needed: such a client carries no ambient credential.
    const anonymous = await t.post(
      `/board/projects/${t.projectId}/cards/${data.id}/status`,
      [['status', 'done']],
      { cookie: '' },
    );
    expect(anonymous.status).toBe(401);
    const api = await t.post(
      `/board/projects/${t.projectId}/cards/${data.id}/status`,
      [['status', 'done']],
      { cookie: '', ...t.bearer },
    );
    expect(api.status).toBe(303);
    expect(await t.cardOf(data.id)).toMatchObject({ status: 'done' });
  });

  it('answer a bad status with 400 and a card of another project with 404', async () => {
    const { data } = await t.report('Strict card');
    expect((await t.setStatus(data.id, 'resolved')).status).toBe(400);
    const other = (await t.report('Elsewhere', [], t.otherKey)).data;
    expect((await t.setStatus(other.id, 'done')).status).toBe(404);
    expect((await t.cards(t.otherProjectId))[0]).toMatchObject({ status: 'todo' });
  });
});

describe('the cards list', () => {
  it("sets the checked cards in bulk (only the project's) and returns to the same view", async () => {
    const a = (await t.report('Bulk one')).data;
    const b = (await t.report('Bulk two')).data;
    const other = (await t.report('Other project card', [], t.otherKey)).data;
    const back = `/board/projects/${t.projectId}?sort=title&dir=asc`;
    const res = await t.post(`/board/projects/${t.projectId}/cards/status`, [
      ['csrf', t.csrf],
      ['status', 'ignored'],
      ['card', String(a.id)],
      ['card', String(b.id)],
      ['card', String(other.id)],
      ['back', back],
    ]);
    expect(res.status).toBe(303);
    // Back to the same view, which confirms what changed (the other project's card: nothing).
    expect(res.headers.get('location')).toBe(`${back}&set=ignored&n=2&same=0`);
    const confirmed = await (await t.get(res.headers.get('location')!)).text();
    expect(confirmed).toContain('<p class="notice" role="status">Set 2 cards to Ignored.</p>');
    // The page's own links and its form's way back do not carry the confirmation on.
    expect(confirmed).toContain(`name="back" value="${back.replaceAll('&', '&amp;')}"`);
    expect(confirmed).not.toMatch(/href="[^"]*set=ignored/);
    expect(await t.cardOf(a.id)).toMatchObject({ status: 'ignored' });
    expect(await t.cardOf(b.id)).toMatchObject({ status: 'ignored' });
    expect((await t.cards(t.otherProjectId)).find((c) => c.id === other.id)).toMatchObject({
      status: 'todo',
    });
    const offsite = await t.post(`/board/projects/${t.projectId}/cards/status`, [
      ['csrf', t.csrf],
      ['status', 'todo'],
      ['back', 'https://evil.test/'],
    ]);
    expect(offsite.headers.get('location')).toBe(
      `/board/projects/${t.projectId}?set=todo&n=0&same=0`,
    );
    const tooMany = Array.from(
      { length: 101 },
      (_, i) => ['card', String(i + 1)] as [string, string],
    );
    const big = await t.post(`/board/projects/${t.projectId}/cards/status`, [
      ['csrf', t.csrf],
      ['status', 'done'],
      ...tooMany,
    ]);
    expect(big.status).toBe(400);
  });

  it('shows open cards by default, filters by status and counts cards per status', async () => {
    const wip = (await t.report('Worked on')).data;
    expect((await t.setStatus(wip.id, 'in_progress')).status).toBe(303);
    const all = await t.cards();
    const count = (status: string) => all.filter((c) => c.status === status).length;
    const titles = async (query: string) => {
      const html = await (await t.get(`/board/projects/${t.projectId}${query}`)).text();
      return [...html.matchAll(/<td class="title"><a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]).sort();
    };
    const expected = (statuses: string[]) =>
      all
        .filter((c) => statuses.includes(c.status))
        .map((c) => c.title)
        .sort();
    expect(await titles('')).toEqual(expected(['todo', 'in_progress']));
    expect(await titles('?status=done')).toEqual(expected(['done']));
    expect(await titles('?status=ignored')).toEqual(expected(['ignored']));
    expect(await titles('?status=all')).toEqual(
      expected(['todo', 'in_progress', 'done', 'ignored']),
    );
    for (const status of ['todo', 'in_progress', 'done', 'ignored']) {
      expect(count(status), status).toBeGreaterThan(0);
    }

    const html = await (await t.get(`/board/projects/${t.projectId}`)).text();
    const tabs = [
      ...html.matchAll(
        /<a href="[^"]*"(?: class="on" aria-current="page")?>([^<]+) <span class="n">(\d+)<\/span><\/a>/g,
      ),
    ].map((m) => [m[1], Number(m[2])]);
    expect(tabs).toEqual([
      ['Open', count('todo') + count('in_progress')],
      ['To do', count('todo')],
      ['In progress', count('in_progress')],
      ['Done', count('done')],
      ['Ignored', count('ignored')],
      ['All', all.length],
    ]);
    expect((await t.get(`/board/projects/${t.projectId}?status=resolved`)).status).toBe(400);
    const empty = await (
      await t.get(`/board/projects/${t.otherProjectId}?status=in_progress`)
    ).text();
    expect(empty).toContain('No cards match these filters.');
    expect(empty).toContain('In progress <span class="n">0</span>');
  });
});
