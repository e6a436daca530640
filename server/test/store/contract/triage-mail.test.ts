import { afterEach, describe, expect, it } from 'vitest';
import { openTestEngine, report, type TestEngine } from './engine.ts';

// The port's triage, notifications and mail queue, on this run's engine: status changes recorded
// and counted, a report reopening a resolved card and leaving an ignored one ignored; a project's
// digest queued once due; quota warnings; the outbox until a mail is marked sent.
const DAY = 86_400_000;
const engines: TestEngine[] = [];
let clock = Date.UTC(2026, 10, 22, 12, 0, 0);
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

async function setup(plans?: Record<string, { burstPerMinute: number; dailyEvents: number }>) {
  const engine = await openTestEngine({
    now: () => clock,
    ...(plans && { plans: plans as never }),
  });
  engines.push(engine);
  const { store } = engine;
  const key = await engine.project({
    plan: 'hobby',
    members: [{ email: 'owner@acme.test', role: 'owner' }],
    name: 'Shop',
  });
  const created = async (title: string) => {
    const outcome = await store.ingest(key, report(title));
    if (outcome.kind !== 'created') throw new Error(`${title}: ${outcome.kind}`);
    return outcome.card.id;
  };
  return { engine, store, key, board: await engine.board(), created };
}

describe('triage', () => {
  it('records and counts status changes; a report reopens a done card, an ignored one stays', async () => {
    const { store, key, board, created } = await setup();
    const [a, b, c] = [await created('A'), await created('B'), await created('C')];
    const day = Math.floor(clock / DAY);
    clock += 1000;
    const change = { projectId: key.projectId, actor: 'ann', at: clock };
    const done = await board.setCardStatus({ ...change, cardIds: [a, b], status: 'done' });
    expect(done.map((x) => [x.id, x.title, x.from, x.to])).toEqual([
      [a, 'A', 'todo', 'done'],
      [b, 'B', 'todo', 'done'],
    ]);
    await board.setCardStatus({ ...change, cardIds: [c], status: 'ignored' });
    expect((await board.getProject(key.projectId, day))!.statusCounts).toEqual({
      todo: 0,
      in_progress: 0,
      done: 2,
      ignored: 1,
    });

    clock += 1000;
    const reopened = await store.ingest(key, report('A', { tags: ['release:2.0'] }));
    expect(reopened).toMatchObject({ kind: 'deduplicated', card: { status: 'todo' } });
    const ignored = await store.ingest(key, report('C'));
    expect(ignored).toMatchObject({ kind: 'deduplicated', card: { status: 'ignored' } });
    expect(await board.getCard(key.projectId, a, day)).toMatchObject({
      status: 'todo',
      regressions: 1,
      lastRegressedAt: clock,
    });
    expect(await board.getCard(key.projectId, c, day)).toMatchObject({
      status: 'ignored',
      occurrenceCount: 2,
      regressions: 0,
    });
    const history = (await board.cardHistory(a, 10)).map((e) => [e.kind, e.from, e.to, e.actor]);
    expect(history).toEqual([
      ['regression', 'done', 'todo', null],
      ['status', 'todo', 'done', 'ann'],
    ]);
    expect((await board.cardHistory(a, 10))[0]!.release).toBe('2.0');
    expect((await board.getProject(key.projectId, day))!.statusCounts).toEqual({
      todo: 1,
      in_progress: 0,
      done: 1,
      ignored: 1,
    });
  });
});

describe('notifications and mail', () => {
  const timing = { delayMs: 60_000, intervalMs: 300_000 };

  it("queues one digest per project once due, to the account's members", async () => {
    const { store, key, created } = await setup();
    await store.setNotifications(key.projectId, { recipients: null });
    expect(await store.listNotifications()).toEqual([
      { projectId: key.projectId, recipients: null, lastSentAt: null },
    ]);
    await created('First');
    await created('Second');
    expect(await store.queueDigests(clock, timing)).toBe(0);
    clock += timing.delayMs;
    expect(await store.queueDigests(clock, timing)).toBe(1);
    expect(await store.queueDigests(clock, timing)).toBe(0); // its notices are cleared
    const [mail] = await store.listMail(key.accountId);
    expect(mail).toMatchObject({ to: ['owner@acme.test'], sentAt: null, attempts: 0 });
    expect(mail!.subject).toContain('Shop');
    expect(mail!.text).toContain('First');
    expect(mail!.text).toContain('Second');
    expect((await store.listNotifications())[0]!.lastSentAt).not.toBeNull();
    await store.setNotifications(key.projectId, null);
    expect(await store.listNotifications()).toEqual([]);
  });

  it('warns once per threshold and day; a mail stays pending until it is marked sent', async () => {
    const { store, key, created } = await setup({
      hobby: { burstPerMinute: 100, dailyEvents: 4 },
    });
    await created('One');
    await created('Two');
    expect(await store.listMail()).toEqual([]);
    await created('Three'); // 75 % of 4
    const [warning] = await store.listMail(key.accountId);
    expect(warning).toMatchObject({ accountId: key.accountId, to: ['owner@acme.test'] });
    expect(warning!.subject).toContain('75%');
    expect(await store.listMail(key.accountId + 1)).toEqual([]);

    const [pending] = await store.pendingMail(10);
    expect(pending!.id).toBe(warning!.id);
    await store.markMail(pending!.id, { sent: false, error: 'SMTP down' });
    expect((await store.pendingMail(10)).map((m) => m.id)).toEqual([warning!.id]);
    expect((await store.listMail())[0]).toMatchObject({ attempts: 1, lastError: 'SMTP down' });
    await store.markMail(pending!.id, { sent: true });
    expect(await store.pendingMail(10)).toEqual([]);
    expect((await store.listMail())[0]).toMatchObject({ attempts: 2, sentAt: expect.any(String) });
  });
});
