import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

// The database holds encryption private keys and the hashes signatures are checked with, so only
// the service's own user may read it: the data dir is created 0700 and `svc.sqlite` with its
// `-wal` and `-shm` files are 0600 whatever the umask (SQLite gives the -wal and -shm files the
// mode of the database file; existing files are tightened on every open).

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** Opens `<dataDir>/svc.sqlite` (creating the dir and the file when missing) with owner-only modes. */
export function openDatabaseFile(dataDir: string): Database.Database {
  const created = mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  if (created !== undefined) chmodSync(dataDir, DIR_MODE);
  const path = join(dataDir, 'svc.sqlite');
  if (!existsSync(path)) closeSync(openSync(path, 'a', FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file)) chmodSync(file, FILE_MODE);
  }
  return new Database(path);
}
