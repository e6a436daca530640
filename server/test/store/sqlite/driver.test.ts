import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sqliteDriver, sqliteDriverName } from '../../../src/store/sqlite/driver.ts';

const SERVER = fileURLToPath(new URL('../../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

// better-sqlite3 12 aborts on Node 24 and 13 crashes on Node 20: one module picks the driver.
describe('the SQLite driver', () => {
  it('is 13 (the Node-API alias) from Node-API 10 on, 12 before', () => {
    expect(sqliteDriverName(9)).toBe('better-sqlite3');
    expect(sqliteDriverName(10)).toBe('better-sqlite3-napi');
    const loaded = sqliteDriver();
    expect(loaded.label).toBe(
      Number(process.versions.napi) >= 10 ? 'better-sqlite3 13.2.0' : 'better-sqlite3 12.11.1',
    );
  });

  it('is loaded only by driver.ts: sources and tests open files through openSqlite', () => {
    const loading = [...sources(join(SERVER, 'src')), ...sources(join(SERVER, 'test'))].filter(
      (file) => /^import (?!type )[^;]*from 'better-sqlite3'/m.test(readFileSync(file, 'utf8')),
    );
    expect(loading.map((file) => relative(SERVER, file))).toEqual([]);
  });
});
