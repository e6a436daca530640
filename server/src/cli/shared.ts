import { resolve } from 'node:path';
import type { Member, ProjectState } from '../store/types.ts';
import type { Flags } from './args.ts';

// Helpers shared by the CLI's commands (main.ts dispatches to them; none imports main.ts).

/** The data dir: `--data-dir`, else `$SERVICE_DATA_DIR`, else `./.data`. */
export const dataDirOf = (flags: Flags) =>
  resolve(flags['data-dir'] ?? process.env.SERVICE_DATA_DIR ?? './.data');

/** `--database-url`, else `$DATABASE_URL`; undefined selects SQLite. */
export const databaseUrlOf = (flags: Flags): string | undefined =>
  flags['database-url'] || process.env.DATABASE_URL || undefined;

/** `email[:role]` of `--member`; the role defaults to `member`. */
export function parseMember(spec: string): Member {
  const [email, role = 'member'] = spec.split(':');
  return { email: email!.trim(), role: role.trim() as Member['role'] };
}

/** `project pause|resume|archive` -> the state it sets. */
export const STATE_OF: Record<string, ProjectState> = {
  pause: 'paused',
  resume: 'active',
  archive: 'archived',
};
