import { describe, expect, it } from 'vitest';
import { isSetupError, isUnavailable } from '../../../src/store/availability.ts';
import { openBoardStore } from '../../../src/store/open.ts';
import { engine } from '../../../src/store/pg/engine.ts';
import { requirePostgres } from '../../store-kind.ts';

// PostgreSQL's errors as the store's guard and the CLI read them: what passes by itself (503,
// retried) by SQLSTATE class or code, or by node-postgres's message when it gives no code; what
// the operator must fix (access refused, no such database).
const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('PostgreSQL errors', () => {
  it.each([
    ['terminated by an administrator (57P01)', withCode('57P01', 'terminating connection')],
    [
      'shutting down or starting up (57P03)',
      withCode('57P03', 'the database system is starting up'),
    ],
    ['too many connections (53300)', withCode('53300')],
    ['a connection exception (08006)', withCode('08006')],
    ['a deadlock (40P01)', withCode('40P01')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    [
      'a client after its connection failed',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
  ])('%s: unavailable', (_name, error) => {
    expect(engine.isUnavailable(error)).toBe(true);
  });

  it.each([
    ['a syntax error (42601)', withCode('42601')],
    ['a unique violation (23505)', withCode('23505')],
    ['a plain bug', new TypeError('undefined is not a function')],
  ])('%s: not unavailable', (_name, error) => {
    expect(engine.isUnavailable(error)).toBe(false);
  });

  it('access refused (28P01) and no such database (3D000) are setup errors', () => {
    expect(engine.isSetupError(withCode('28P01'))).toBe(true);
    expect(engine.isSetupError(withCode('3D000'))).toBe(true);
    expect(engine.isSetupError(withCode('57P01'))).toBe(false);
  });

  it('are known to the guard and the CLI once a store of the engine was opened', async () => {
    const url = await requirePostgres();
    await (await openBoardStore({ databaseUrl: url, dataDir: '/nonexistent' })).close();
    expect(isUnavailable(withCode('57P01'))).toBe(true);
    expect(isUnavailable(new Error('batch', { cause: withCode('08006') }))).toBe(true);
    expect(isSetupError(withCode('28P01'))).toBe(true);
  });
});
