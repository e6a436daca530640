import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSetupError, isUnavailable } from '../../../src/store/availability.ts';
import { openBoardStore } from '../../../src/store/open.ts';
import { DataDirError } from '../../../src/store/sqlite/database-file.ts';
import { engine } from '../../../src/store/sqlite/engine.ts';

// SQLite's errors as the store's guard and the CLI read them: busy or failing disks pass by
// themselves (503, retried), a data dir open to others is the operator's to fix.
const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('SQLite errors', () => {
  it.each([
    ['busy past busy_timeout', withCode('SQLITE_BUSY', 'database is locked')],
    ['disk full', withCode('SQLITE_FULL')],
    ['an I/O error', withCode('SQLITE_IOERR_WRITE')],
  ])('%s: unavailable', (_name, error) => {
    expect(engine.isUnavailable(error)).toBe(true);
  });

  it.each([
    ['a constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain bug', new TypeError('undefined is not a function')],
  ])('%s: not unavailable', (_name, error) => {
    expect(engine.isUnavailable(error)).toBe(false);
  });

  it('a data dir open to others is a setup error', () => {
    expect(engine.isSetupError(new DataDirError('open to others'))).toBe(true);
    expect(engine.isSetupError(withCode('SQLITE_BUSY'))).toBe(false);
  });

  it('are known to the guard and the CLI once a store of the engine was opened', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-engine-'));
    try {
      await (await openBoardStore({ dataDir })).close();
      expect(isUnavailable(withCode('SQLITE_BUSY'))).toBe(true);
      expect(isSetupError(new DataDirError('open to others'))).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
