import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite, type SqliteDatabase } from './driver.ts';

// The database holds encryption private keys and the hashes signatures are checked with, so only
// the service's own user may read it: the data dir is made 0700 and `svc.sqlite` with its `-wal`
// and `-shm` files 0600 whatever the umask, on every open (SQLite gives the -wal and -shm files the
// mode of the database file). An existing dir or file open to others is tightened (group and other
// bits removed); when that fails (not its owner) the store refuses to open rather than write keys
// into it.

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
const OTHERS = 0o077;

/** The data dir or a database file is open to other users and could not be restricted. */
export class DataDirError extends Error {}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Removes group and other permissions from `path`, or throws a DataDirError saying how to fix it. */
function restrict(path: string, what: string, target: number): void {
  const mode = statSync(path).mode & 0o777;
  if ((mode & OTHERS) === 0) return;
  try {
    chmodSync(path, mode & target);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new DataDirError(
      `${what} ${path} is mode ${octal(mode)} (open to other users) and could not be restricted to ` +
        `${octal(mode & target)} (${reason}); run svc-server as its owner or chmod it yourself.`,
    );
  }
}

/** Opens `<dataDir>/svc.sqlite` (creating the dir and the file when missing) with owner-only modes. */
export function openDatabaseFile(dataDir: string): SqliteDatabase {
  mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  restrict(dataDir, 'The data directory', DIR_MODE);
  const path = join(dataDir, 'svc.sqlite');
  if (!existsSync(path)) closeSync(openSync(path, 'a', FILE_MODE));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file)) restrict(file, 'The database file', FILE_MODE);
  }
  return openSqlite(path);
}
