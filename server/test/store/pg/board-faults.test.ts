import { mkdtempSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPostgres, startPostgres } from '../../../../testkit/src/postgres.ts';
import { type RunningServer, startServer } from '../../../src/server.ts';
import { StoreUnavailableError } from '../../../src/store/availability.ts';
import { openPgBoardStore } from '../../../src/store/pg/board.ts';
import { openPgStore } from '../../../src/store/pg/store.ts';

// PostgreSQL only, on a cluster of its own (it is frozen and stopped): against a PostgreSQL that
// answers nothing (every process stopped with SIGSTOP), the board's pages, a status change and the
// admin API give up within their deadline (5 s) with 503, `Retry-After` and, on the board, a
// readable page, instead of waiting until it wakes; against a stopped one, at once; and all of
// them answer again once it is back. The stores alone: each board read or write, each admin call
// and each query of the mail loop rejects as unavailable within the deadline given.
const big = { burstPerMinute: 1e6, dailyEvents: 1e6 };
const STORE_WITH_1S_DEADLINE = {
  now: Date.now,
  plans: { hobby: big, indie: big, professional: big, team: big },
  variantCap: 20,
  projectQuotaShare: 0.8,
  adminDeadlineMs: 1000,
};

type NamedCall = [string, () => Promise<unknown>];

/** Runs the calls at once: each must reject with a timeout, and within `withinMs`. */
async function expectTimeoutsWithin(calls: NamedCall[], withinMs: number) {
  const outcomes = await Promise.all(
    calls.map(async ([name, call]) => {
      const started = performance.now();
      const error = await call().then(
        () => undefined,
        (e: unknown) => e as { code?: string; message?: string },
      );
      return [name, error?.code ?? error?.message, performance.now() - started < withinMs];
    }),
  );
  expect(outcomes).toEqual(
    calls.map(([name]) => [name, expect.stringMatching(/ETIMEDOUT|timeout/), true]),
  );
}

let postgres: RunningPostgres;
let url: string;
let dataDir: string;
let server: RunningServer;
let token: string;
let projectId: number;
let cardId: number;

beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'svc-pg-board-faults-'));
  server = await startServer({ port: 0, dataDir, databaseUrl: url, board: true });
  const account = await server.admin.createAccount({ name: 'Acme', plan: 'team' });
  projectId = (await server.admin.createProject({ accountId: account.id, name: 'Web' })).id;
  const key = (await server.admin.createPublishableKey({ projectId, name: 'web' })).token;
  token = (await server.board!.adminTokens.create({ name: 'ops' })).token;
  const res = await fetch(`${server.url}/api/v1/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ severity: 'major', title: 'Before the freeze' }),
  });
  cardId = ((await res.json()) as { data: { id: number } }).data.id;
});

afterAll(async () => {
  await server?.close();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A board request as an admin token's bearer; gives up after 20 s (the deadline is 5 s). */
async function board(path: string, init: RequestInit = {}) {
  const res = await fetch(server.url + path, {
    ...init,
    redirect: 'manual',
    headers: { authorization: `Bearer ${token}`, ...init.headers },
    signal: AbortSignal.timeout(20_000),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    type: res.headers.get('content-type'),
    body: await res.text(),
  };
}
const statusForm = {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: 'status=done',
};
const cardPath = () => `/board/projects/${projectId}/cards/${cardId}`;

async function expectUnavailable(answer: ReturnType<typeof board>) {
  const a = await answer;
  expect([a.status, a.type]).toEqual([503, 'text/html; charset=utf-8']);
  expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(a.body).toMatch(
    /<h1>Unavailable<\/h1>[\s\S]*The database is unavailable; try again in \d+ s\./,
  );
}

async function untilServed() {
  for (let i = 0; i < 200; i++) {
    if ((await board(`/board/projects/${projectId}`)).status === 200) return;
    await sleep(100);
  }
  throw new Error('the board did not answer 200 again');
}

describe('the board and the admin API against PostgreSQL in trouble', () => {
  it('answers nothing (SIGSTOP): 503 with Retry-After within the deadline, then served again', async () => {
    expect((await board(`/board/projects/${projectId}`)).status).toBe(200);
    postgres.freeze();
    try {
      await Promise.all([
        expectUnavailable(board('/board')),
        expectUnavailable(board(`/board/projects/${projectId}`)),
        expectUnavailable(board(cardPath())),
        expectUnavailable(board(`${cardPath()}/status`, statusForm)),
        expect(server.admin.listAccounts()).rejects.toBeInstanceOf(StoreUnavailableError),
      ]);
    } finally {
      postgres.thaw();
    }
    await untilServed();
    expect((await board(`${cardPath()}/status`, statusForm)).status).toBe(303);
  }, 60_000);

  it('stopped: 503 with Retry-After at once, then served again once it is back', async () => {
    await postgres.halt('fast');
    try {
      await expectUnavailable(board(`/board/projects/${projectId}`));
      await expectUnavailable(board(cardPath()));
      await expect(server.admin.listProjects()).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await postgres.resume();
    }
    await untilServed();
    const page = await board(cardPath());
    expect(page.status).toBe(200);
    expect(page.body).toContain('Before the freeze');
  }, 60_000);

  it('each board read and write, and each admin call, rejects within its deadline', async () => {
    const boardStore = await openPgBoardStore({ url, deadlineMs: 1000 });
    const store = await openPgStore({ url, ...STORE_WITH_1S_DEADLINE });
    await boardStore.getProject(projectId, 0); // a connection is open before the freeze
    postgres.freeze();
    try {
      const calls: NamedCall[] = [
        ['getProject', async () => boardStore.getProject(projectId, 0)],
        [
          'listCards',
          async () => boardStore.listCards(projectId, { sort: 'title', dir: 'asc', limit: 50 }),
        ],
        [
          'listCards, tag',
          async () =>
            boardStore.listCards(projectId, { sort: 'title', dir: 'asc', tag: 'x', limit: 50 }),
        ],
        ['getCard', async () => boardStore.getCard(projectId, cardId, 0)],
        ['cardHistory', async () => boardStore.cardHistory(cardId, 20)],
        ['findSession', async () => boardStore.findSession('x', 0)],
        [
          'setCardStatus',
          async () =>
            boardStore.setCardStatus({ cardIds: [cardId], status: 'todo', actor: 'test', at: 0 }),
        ],
        ['admin listAccounts', async () => store.listAccounts()],
        [
          'admin createAccount',
          async () => store.createAccount({ name: 'B', plan: 'team', members: [] }),
        ],
      ];
      // Each within the deadline (1 s), or the 5 s connect timeout when it needed a connection.
      await expectTimeoutsWithin(calls, 8000);
    } finally {
      postgres.thaw();
    }
    await boardStore.close();
    await store.close();
  }, 60_000);

  it("the mail loop's queries on open connections give up within the deadline, not hang", async () => {
    const store = await openPgStore({ url, ...STORE_WITH_1S_DEADLINE });
    const calls: NamedCall[] = [
      ['pendingMail', async () => store.pendingMail(10)],
      ['markMail', async () => store.markMail(1, { sent: true })],
      ['queueDigests', async () => store.queueDigests(Date.now(), { intervalMs: 0, delayMs: 0 })],
      ['listNotifications', async () => store.listNotifications()],
    ];
    // One open connection per call before the freeze, so none waits for a connect (5 s): what is
    // timed is the query's own deadline (1 s); without one it would wait until the thaw.
    await Promise.all(calls.map(async () => store.listMail()));
    postgres.freeze();
    try {
      await expectTimeoutsWithin(calls, 4000);
    } finally {
      postgres.thaw();
    }
    await store.close();
  }, 60_000);
});
