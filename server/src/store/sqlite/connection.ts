import type Database from 'better-sqlite3';
import { openDatabaseFile } from './database-file.ts';
import { migrate } from './migrations.ts';

/**
 * A connection to `<dataDir>/svc.sqlite`, migrated: WAL (readers never wait for the writer), a
 * 5 s wait for another process's write lock, foreign keys on. `synchronous`: NORMAL survives a
 * killed process, FULL power loss too.
 */
export function openConnection(dataDir: string, synchronous: 'NORMAL' | 'FULL'): Database.Database {
  const db = openDatabaseFile(dataDir);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}
