import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers.ts';
import { startTriage, type Triage } from './triage-fixture.ts';

// Environments and release-aware resolution over real HTTP, on SQLite and (server-pg) PostgreSQL:
// each card counts its reports per environment (a report without an env tag in production); a
// card resolved in one environment ignores reports from others; a card resolved in a release
// ignores older releases (semver, else first sight) and regresses on its own or a newer one,
// and its history says which.
let t: Triage;
beforeAll(async () => {
  t = await startTriage();
});
afterAll(() => t?.close());

type EnvRow = { env: string; occurrence_count: number; status: string };
const envsOf = (cardId: number) =>
  t.rows<EnvRow>(
    'SELECT env, occurrence_count, status FROM card_envs WHERE card_id = $1 ORDER BY env',
    [cardId],
  );
type EventRow = {
  kind: string;
  release: string | null;
  env: string | null;
  ordering: string | null;
};
const eventsOf = (cardId: number) =>
  t.rows<EventRow>(
    'SELECT kind, release, env, ordering FROM card_events WHERE card_id = $1 ORDER BY id',
    [cardId],
  );
const setStatus = (...args: string[]) => runCli(['cards', 'set-status', ...args, ...t.storeArgs()]);

describe('environments', () => {
  it('a card counts its reports per environment; no env tag counts in production', async () => {
    const { data } = await t.report('Counted per environment', ['env:production']);
    await t.report('Counted per environment', ['env:development']);
    await t.report('Counted per environment', ['env:development']);
    await t.report('Counted per environment');
    expect(await envsOf(data.id)).toEqual([
      { env: 'development', occurrence_count: 2, status: 'todo' },
      { env: 'production', occurrence_count: 2, status: 'todo' },
    ]);
    type CountRow = { env: string; status: string; count: number };
    const counts = await t.rows<CountRow>(
      `SELECT env, status, count FROM card_env_status_counts WHERE project_id = $1 AND count > 0
       ORDER BY env, status`,
      [t.projectId],
    );
    expect(counts.filter((c) => c.status === 'todo').map((c) => c.env)).toEqual([
      'development',
      'production',
    ]);
  });

  it('a card resolved on the board in production: development leaves it done, production reopens it', async () => {
    const { data } = await t.report('Resolved in production', ['env:production']);
    expect((await t.setStatus(data.id, 'done')).status).toBe(303);
    const dev = await t.report('Resolved in production', ['env:development', 'release:9.9.9']);
    expect(dev.data).toMatchObject({ status: 'done', occurrence_count: 2 });
    expect(await envsOf(data.id)).toEqual([
      { env: 'development', occurrence_count: 1, status: 'done' },
      { env: 'production', occurrence_count: 1, status: 'done' },
    ]);
    const prod = await t.report('Resolved in production', ['env:production']);
    expect(prod.data).toMatchObject({ status: 'todo', occurrence_count: 3 });
    expect(await eventsOf(data.id)).toEqual([
      { kind: 'status', release: null, env: 'production', ordering: null },
      { kind: 'regression', release: null, env: 'production', ordering: null },
    ]);
    expect((await envsOf(data.id)).map((e) => e.status)).toEqual(['todo', 'todo']);
  });

  it('the CLI resolves in an environment of its choice', async () => {
    const { data } = await t.report('Resolved in staging', ['env:staging']);
    const r = await setStatus('--card', String(data.id), '--status', 'done', '--env', 'staging');
    expect(r.code, r.output).toBe(0);
    expect((await t.report('Resolved in staging', ['env:production'])).data.status).toBe('done');
    expect((await t.report('Resolved in staging', ['env:staging'])).data.status).toBe('todo');
    const bad = await setStatus('--card', String(data.id), '--status', 'todo', '--env', 'x');
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('svc-server: --env and --release go with --status done.');
  });
});

describe('release-aware resolution', () => {
  it('semver: an older release leaves the card done, the same or a newer one reopens it', async () => {
    const { data } = await t.report('Fixed in 2.5.0', ['release:2.4.9']);
    const r = await setStatus('--card', String(data.id), '--status', 'done', '--release', '2.5.0');
    expect(r.stdout).toBe(
      `Card #${data.id} "Fixed in 2.5.0" is done in production, from release 2.5.0 on (was todo): only a report from there reopens it.\n`,
    );
    for (const old of ['release:2.4.9', 'release:2.5.0-rc.1', 'other']) {
      expect((await t.report('Fixed in 2.5.0', [old])).data.status).toBe('done');
    }
    const card = await t.cardOf(data.id);
    expect(card).toMatchObject({ status: 'done', occurrence_count: 4, regressions: 0 });
    expect((await t.report('Fixed in 2.5.0', ['release:2.10.0'])).data.status).toBe('todo');
    expect((await eventsOf(data.id)).at(-1)).toEqual({
      kind: 'regression',
      release: '2.10.0',
      env: 'production',
      ordering: 'semver',
    });
  });

  it('first sight: the current release is the one seen last; a release seen before it is older', async () => {
    await t.report('Some other card', ['release:build-a']);
    const { data } = await t.report('Fixed in build-b', ['release:build-a']);
    await t.report('Yet another card', ['release:build-b']);
    const r = await setStatus('--card', String(data.id), '--status', 'done', '--current-release');
    expect(r.code, r.output).toBe(0);
    expect((await eventsOf(data.id)).at(-1)).toEqual({
      kind: 'status',
      release: 'build-b',
      env: 'production',
      ordering: null,
    });
    expect((await t.report('Fixed in build-b', ['release:build-a'])).data.status).toBe('done');
    expect((await t.report('Fixed in build-b', ['release:build-c'])).data.status).toBe('todo');
    expect((await eventsOf(data.id)).at(-1)).toEqual({
      kind: 'regression',
      release: 'build-c',
      env: 'production',
      ordering: 'first_sight',
    });
  });

  it('a release named before it was ever seen: older ones stay done until it comes', async () => {
    await t.report('Seen first', ['release:build-x']);
    const { data } = await t.report('Fixed in a future build', ['release:build-x']);
    await setStatus('--card', String(data.id), '--status', 'done', '--release', 'build-y');
    expect((await t.report('Fixed in a future build', ['release:build-x'])).data.status).toBe(
      'done',
    );
    expect((await t.report('Fixed in a future build', ['release:build-y'])).data.status).toBe(
      'todo',
    );
    expect((await eventsOf(data.id)).at(-1)).toMatchObject({
      release: 'build-y',
      ordering: 'same',
    });
  });
});
