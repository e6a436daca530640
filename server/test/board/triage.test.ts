import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers.ts';
import { startTriage, type Triage } from './triage-fixture.ts';

// Triage over real HTTP (see triage-fixture.ts): a card resolved on the board or by the CLI comes
// back when its error does, ignored and in-progress cards stay, and board, CLI and ingestion at
// once keep one history chain.
let t: Triage;
beforeAll(async () => {
  t = await startTriage();
});
afterAll(() => t?.close());

describe('a card resolved on the board', () => {
  it('returns to todo with regressions: 1 when the same error is reported again', async () => {
    const { data } = await t.report('Checkout failed');
    expect(data.status).toBe('todo');
    const done = await t.setStatus(data.id, 'done');
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(
      `/board/projects/${t.projectId}/cards/${data.id}?env=production`,
    );
    expect(await t.cardOf(data.id)).toMatchObject({ status: 'done', regressions: 0 });
    expect((await t.cardOf(data.id)).last_regressed_at).toBeNull();

    const again = await t.report('Checkout failed', ['env:production', 'release:2.4.2']);
    expect(again.data).toMatchObject({ id: data.id, status: 'todo', occurrence_count: 2 });
    const card = await t.cardOf(data.id);
    expect(card).toMatchObject({ status: 'todo', regressions: 1, occurrence_count: 2 });
    expect(Date.parse(card.last_regressed_at!)).toBeGreaterThan(Date.now() - 60_000);
    // A further report of the reopened card is no new regression.
    expect((await t.report('Checkout failed')).data.status).toBe('todo');
    expect(await t.cardOf(data.id)).toMatchObject({ regressions: 1, occurrence_count: 3 });

    const html = await (await t.get(`/board/projects/${t.projectId}/cards/${data.id}`)).text();
    expect(html).toContain('<span class="status st-todo">To do</span>');
    expect(html).toContain('<span class="badge regressed"');
    expect(html).toMatch(
      /<dt>Regressions<\/dt><dd>1 <span class="muted">\(last .*release <code>2\.4\.2<\/code>/,
    );
    const history = /<ol class="history">(.*?)<\/ol>/s.exec(html)![1]!;
    const items = [...history.matchAll(/<li>(.*?)<\/li>/gs)].map((m) =>
      m[1]!.replace(/<[^>]+>/g, ''),
    );
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(
      /regressed reported again in release 2\.4\.2 from production after it was resolved: Done → To do$/,
    );
    expect(items[1]).toMatch(/ann set Done in production \(was To do\)$/);
  });

  it('stays ignored while its count rises, and in progress stays in progress', async () => {
    const { data } = await t.report('Noisy warning');
    expect((await t.setStatus(data.id, 'ignored')).status).toBe(303);
    for (let i = 2; i <= 4; i++) {
      const r = await t.report('Noisy warning');
      expect(r.data).toMatchObject({ status: 'ignored', occurrence_count: i });
    }
    expect(await t.cardOf(data.id)).toMatchObject({
      status: 'ignored',
      regressions: 0,
      occurrence_count: 4,
    });
    const wip = (await t.report('Being fixed')).data;
    await t.setStatus(wip.id, 'in_progress');
    expect((await t.report('Being fixed')).data.status).toBe('in_progress');
  });

  it('is set with the CLI too, from another process, and the running service sees it at once', async () => {
    const { data } = await t.report('Set from the CLI');
    const run = (...args: string[]) => runCli(['cards', 'set-status', ...args, ...t.storeArgs()]);
    const r = await run('--card', String(data.id), '--status', 'done');
    expect(r.code, r.output).toBe(0);
    expect(r.stdout).toBe(
      `Card #${data.id} "Set from the CLI" is done in production (was todo): only a report from there reopens it.\n`,
    );
    expect((await t.report('Set from the CLI')).data.status).toBe('todo'); // a regression
    expect(await t.cardOf(data.id)).toMatchObject({ status: 'todo', regressions: 1 });
    const html = await (await t.get(`/board/projects/${t.projectId}/cards/${data.id}`)).text();
    expect(html).toContain('<strong>cli</strong> set');

    for (const [args, message] of [
      [['--card', '999999', '--status', 'done'], 'No card with id 999999.'],
      [
        ['--card', String(data.id), '--status', 'resolved'],
        '--status must be one of todo, in_progress, done, ignored.',
      ],
      [['--status', 'done'], '--card must be a positive integer id.'],
    ] as const) {
      const bad = await run(...args);
      expect(bad.code).toBe(1);
      expect(bad.output).toContain(`svc-server: ${message}`);
    }
  });
});

describe('at the same time', () => {
  it('board changes, CLI changes and reports of one card keep one history chain', async () => {
    const { data } = await t.report('Contended card');
    const statuses = ['done', 'ignored', 'done', 'in_progress', 'todo'];
    let reports = 1;
    for (let round = 0; round < 6; round++) {
      const cli = runCli([
        'cards',
        'set-status',
        '--card',
        String(data.id),
        '--status',
        statuses[(round + 3) % statuses.length]!,
        ...t.storeArgs(),
      ]);
      const results = await Promise.all([
        t.setStatus(data.id, statuses[round % statuses.length]!),
        t.report('Contended card'),
        t.report('Contended card'),
        t.setStatus(data.id, 'done'),
        t.report('Contended card'),
      ]);
      reports += 3;
      expect((await cli).code).toBe(0);
      expect(
        results.filter((r) => r instanceof Response).map((r) => (r as Response).status),
      ).toEqual([303, 303]);
    }
    const history = await t.historyOf(data.id);
    let status = 'todo';
    for (const [i, [kind, from, to]] of history.entries()) {
      expect([i, from]).toEqual([i, status]);
      expect(to).not.toBe(from);
      if (kind === 'regression') expect([from, to]).toEqual(['done', 'todo']);
      status = to;
    }
    const card = await t.cardOf(data.id);
    expect(card).toMatchObject({
      status,
      occurrence_count: reports,
      regressions: history.filter(([kind]) => kind === 'regression').length,
    });
    expect(card.regressions).toBeGreaterThan(0);
  });
});
