import { describe, expect, it } from 'vitest';
import {
  isSetupError,
  isUnavailable,
  learnEngineErrors,
  StoreUnavailableError,
} from '../../src/store/availability.ts';
import { createAvailability } from '../../src/store/guard.ts';

// The outage bookkeeping in-process, with an injected clock, log and ping; each engine's own
// errors are in sqlite/engine.test.ts and pg/engine.test.ts, the real faults (a PostgreSQL
// stopped, its sessions terminated, SQLite locked by another process) in pg/faults.test.ts and
// sqlite/faults.test.ts.
const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isUnavailable', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    [
      'refused on every address (AggregateError)',
      Object.assign(new AggregateError([withCode('ECONNREFUSED')], ''), { code: 'ECONNREFUSED' }),
    ],
    ['a wrapped cause', new Error('batch failed', { cause: withCode('ECONNRESET') })],
    ['already classified', new StoreUnavailableError(3, { cause: new Error('x') })],
  ])('%s: yes', (_name, error) => {
    expect(isUnavailable(error)).toBe(true);
  });

  it.each([
    ['a plain bug', new TypeError('undefined is not a function')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s: no', (_name, error) => {
    expect(isUnavailable(error)).toBe(false);
  });

  it("knows an engine's own errors once the engine is learnt, also as a cause", () => {
    const engineError = withCode('ENGINE_BUSY');
    const wrapped = new Error('batch failed', { cause: engineError });
    expect(isUnavailable(engineError)).toBe(false);
    expect(isSetupError(withCode('ENGINE_NO_ACCESS'))).toBe(false);
    learnEngineErrors({
      isUnavailable: (e) => e.code === 'ENGINE_BUSY',
      isSetupError: (e) => e.code === 'ENGINE_NO_ACCESS',
    });
    expect(isUnavailable(engineError)).toBe(true);
    expect(isUnavailable(wrapped)).toBe(true);
    expect(isSetupError(withCode('ENGINE_NO_ACCESS'))).toBe(true);
    expect(isUnavailable(withCode('ENGINE_OTHER'))).toBe(false);
  });
});

function setup(ping?: () => Promise<unknown>) {
  let clock = 10_000;
  const lines: string[] = [];
  const availability = createAvailability({ now: () => clock, log: (l) => lines.push(l), ping });
  let fail: Error | undefined;
  const store = availability.guard({
    call: async () => {
      if (fail) throw fail;
      return 'ok';
    },
    close: () => 'closed',
  });
  return {
    availability,
    store,
    lines,
    tick: (ms: number) => (clock += ms),
    failWith: (e: Error | undefined) => (fail = e),
  };
}

describe('outages', () => {
  it('one line when it starts, one with the count when it ends; 503 errors meanwhile', async () => {
    const t = setup();
    expect(await t.store.call()).toBe('ok');
    t.failWith(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'));
    for (let i = 0; i < 5; i++) {
      const error = await t.store.call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      t.tick(700);
    }
    expect(t.availability.health()).toEqual({ database: 'down', downForMs: 3500, refused: 5 });
    expect(t.availability.retryAfter()).toBe(4);
    t.failWith(undefined);
    expect(await t.store.call()).toBe('ok');
    expect(t.lines).toEqual([
      'svc-server: database unavailable (connect ECONNREFUSED 127.0.0.1:5432); ingestion answers 503 with Retry-After until it is back',
      'svc-server: database available again after 3.5 s; 5 requests were answered 503 meanwhile',
    ]);
    expect(t.availability.health()).toEqual({ database: 'up' });
  });

  it('Retry-After grows with the outage, from 1 s up to 30 s', async () => {
    const t = setup();
    t.failWith(withCode('ECONNRESET'));
    await t.store.call().catch(() => {});
    expect(t.availability.retryAfter()).toBe(1);
    t.tick(9_500);
    expect(t.availability.retryAfter()).toBe(10);
    t.tick(600_000);
    expect(t.availability.retryAfter()).toBe(30);
  });

  it('other errors pass through unchanged and start no outage', async () => {
    const t = setup();
    const bug = new TypeError('bug');
    t.failWith(bug);
    expect(await t.store.call().catch((e: unknown) => e)).toBe(bug);
    expect(t.lines).toEqual([]);
    expect(t.availability.health()).toEqual({ database: 'up' });
  });

  it('a success that began before the outage does not end it', async () => {
    const t = setup();
    let release!: (v: string) => void;
    const slow = t.availability.guard({ call: () => new Promise<string>((r) => (release = r)) });
    const pending = slow.call();
    t.failWith(withCode('ECONNRESET'));
    await t.store.call().catch(() => {});
    release('late');
    await pending;
    expect(t.availability.health().database).toBe('down');
    expect(t.lines).toHaveLength(1);
  });

  it('only the call that failed, or a ping, ends it (reads may work while writes do not)', async () => {
    const t = setup();
    const reads = t.availability.guard({ read: async () => 'row' });
    t.failWith(withCode('ETIMEDOUT', 'write lock held'));
    await t.store.call().catch(() => {});
    expect(await reads.read()).toBe('row');
    expect(t.availability.health().database).toBe('down');
    t.failWith(undefined);
    expect(await t.store.call()).toBe('ok');
    expect(t.availability.health().database).toBe('up');
  });

  it('close is not wrapped', () => {
    const t = setup();
    expect(t.store.close()).toBe('closed');
  });
});

describe('readiness', () => {
  it('pings when down or quiet; a successful ping ends the outage', async () => {
    let answers = false;
    let pings = 0;
    const t = setup(async () => {
      pings++;
      if (!answers) throw withCode('ECONNREFUSED');
    });
    expect(await t.availability.ready()).toBe(false);
    expect(t.availability.health()).toMatchObject({ database: 'down', refused: 0 });
    answers = true;
    expect(await t.availability.ready()).toBe(true);
    expect(pings).toBe(2);
    // A store call just succeeded: no ping for the next second.
    expect(await t.store.call()).toBe('ok');
    t.tick(500);
    expect(await t.availability.ready()).toBe(true);
    expect(pings).toBe(2);
    t.tick(1000);
    expect(await t.availability.ready()).toBe(true);
    expect(pings).toBe(3);
    expect(t.lines.at(-1)).toMatch(/available again after [\d.]+ s; 0 requests were answered 503/);
  });

  it('concurrent checks share one ping', async () => {
    let pings = 0;
    const t = setup(async () => {
      pings++;
    });
    await Promise.all([t.availability.ready(), t.availability.ready(), t.availability.ready()]);
    expect(pings).toBe(1);
  });
});
