import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers.ts';
import { STORE_KIND } from '../store-kind.ts';
import { startTriage, type Triage } from './triage-fixture.ts';

// Faults a user can cause, on SQLite and (server-pg) PostgreSQL: ids past 32 bits name nothing
// (404 on the board, one line from the CLI: PostgreSQL's integer ids once answered 500 and a
// driver's stack), a form over the body limit is a 413, and `cards list` pages by id.
let t: Triage;
beforeAll(async () => {
  t = await startTriage();
});
afterAll(() => t?.close());

const BIG = '2147483648'; // 2^31
const cli = (...args: string[]) => runCli([...args, ...t.storeArgs()]);

describe(`ids past 32 bits (${STORE_KIND})`, () => {
  it('answer 404 on the board, and a cursor past them the first or an empty page', async () => {
    const { data } = await t.report('A card to look past');
    for (const path of [
      `/board/projects/${BIG}`,
      `/board/accounts/${BIG}`,
      `/board/projects/${t.projectId}/cards/${BIG}`,
      `/board/projects/${t.projectId}/cards/${data.id}/variants/${BIG}`,
      '/board/projects/999999999999999',
    ]) {
      const res = await t.get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.text()).toContain('There is nothing here.');
    }
    const status = await t.setStatus(Number(BIG), 'done');
    expect(status.status).toBe(404);
    const history = await t.get(
      `/board/projects/${t.projectId}/cards/${data.id}/history?before=99999999999`,
    );
    expect(history.status).toBe(200);
    expect((await t.get(`/board?after=${BIG}`)).status).toBe(200);
    const bulk = await t.post(`/board/projects/${t.projectId}/cards/status`, [
      ['csrf', t.csrf],
      ['status', 'done'],
      ['card', BIG],
    ]);
    expect(bulk.status).toBe(400);
  });

  it('the CLI says so in one line, exit 1', async () => {
    for (const args of [
      ['cards', 'list', '--project', BIG],
      ['cards', 'set-status', '--card', BIG, '--status', 'done'],
      ['key', 'revoke', BIG],
      ['project', 'pause', '99999999999'],
    ]) {
      const r = await cli(...args);
      expect([args, r.code]).toEqual([args, 1]);
      const lines = r.output.trim().split('\n');
      expect([args, lines]).toEqual([
        args,
        [expect.stringMatching(/^svc-server: .+ no such id \(ids go up to 2147483647\)\.$/)],
      ]);
    }
  });
});

describe(`forms (${STORE_KIND})`, () => {
  it('a form over 1 MiB is answered 413, as a page, and changes nothing', async () => {
    const { data } = await t.report('Not changed by a huge form');
    const res = await t.post(`/board/projects/${t.projectId}/cards/${data.id}/status`, [
      ['csrf', t.csrf],
      ['status', 'done'],
      ['pad', 'x'.repeat(1024 * 1024 + 10)],
    ]);
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('A form is at most 1 MiB; nothing changed.');
    expect(await t.cardOf(data.id)).toMatchObject({ status: 'todo' });
  });
});

describe(`cards list pages (${STORE_KIND})`, () => {
  it('by id: --limit cards, then --after the last one, as text and as JSON', async () => {
    const other = t.otherProjectId;
    for (let i = 0; i < 5; i++) await t.report(`Paged card ${i}`, [], t.otherKey);
    const json = async (...more: string[]) => {
      const r = await cli('cards', 'list', '--project', String(other), '--json', ...more);
      expect(r.code, r.output).toBe(0);
      return (JSON.parse(r.stdout) as { id: number; title: string }[]).map((c) => c.title);
    };
    const first = await json('--limit', '2');
    expect(first).toEqual(['Paged card 0', 'Paged card 1']);
    const all = (await cli('cards', 'list', '--project', String(other), '--json')).stdout;
    const ids = (JSON.parse(all) as { id: number }[]).map((c) => c.id);
    expect(ids).toHaveLength(5);
    expect(await json('--limit', '2', '--after', String(ids[1]))).toEqual([
      'Paged card 2',
      'Paged card 3',
    ]);
    const text = await cli('cards', 'list', '--project', String(other), '--limit', '2');
    expect(text.stdout.trim().split('\n').at(-1)).toBe(`More cards: add --after ${ids[1]}`);
    const last = await cli('cards', 'list', '--project', String(other), '--after', String(ids[3]));
    expect(last.stdout).not.toContain('More cards');
    const bad = await cli('cards', 'list', '--project', String(other), '--limit', '1001');
    expect([bad.code, bad.output]).toEqual([
      1,
      expect.stringContaining('--limit is at most 1000.'),
    ]);
  });
});
