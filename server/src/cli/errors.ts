import { AdminError } from '../admin.ts';
import { redactUrl } from '../store/open.ts';
import { DataDirError } from '../store/sqlite/database-file.ts';
import { NotFound, UsageError } from './args.ts';

// How a command that failed says so: one line on stderr, `svc-server: ` and what went wrong in
// words (never a driver's stack or a database URL's password), followed by the usage hint when
// the command itself was refused (a wrong flag, an unknown plan). A database that cannot be
// reached, an id that names nothing or an unexpected failure is that one line alone.
// `SVC_DEBUG=1` adds the stack of an unexpected error.

/** Errors whose message is written for the person at the command line. */
const SAID = [UsageError, AdminError, DataDirError, NotFound];

/** Network codes that mean the database could not be reached. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  ETIMEDOUT: 'no answer',
  EHOSTUNREACH: 'host unreachable',
  ECONNRESET: 'connection reset',
};
/** SQLSTATEs of a server that answers but will not let us in (its own words say why). */
const REFUSED = new Set(['28P01', '28000', '3D000', '57P01', '57P03']);

/** A PostgreSQL error: its five-character SQLSTATE. */
const sqlState = (err: { code?: unknown }) =>
  typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) ? err.code : undefined;

/** The line a failed command prints (without the `svc-server: ` prefix), and whether to add usage. */
export function errorLine(
  err: unknown,
  databaseUrl: string | undefined,
  said: readonly (abstract new (...args: never[]) => Error)[] = [],
): { line: string; usage: boolean } {
  const e = err instanceof Error ? err : new Error(String(err));
  if ([...SAID, ...said].some((kind) => e instanceof kind)) {
    return { line: oneLine(e.message), usage: !(e instanceof NotFound) };
  }
  const code = (e as { code?: string }).code;
  const where = databaseUrl ? redactUrl(databaseUrl) : 'the database';
  if (code !== undefined && code in UNREACHABLE) {
    return { line: `cannot use ${where}: ${UNREACHABLE[code]}.`, usage: false };
  }
  if (code !== undefined && REFUSED.has(code)) {
    return { line: `cannot use ${where}: ${oneLine(e.message)}.`, usage: false };
  }
  if (/Connection terminated|connection timeout|timeout expired/i.test(e.message)) {
    return {
      line: `cannot use ${where}: the connection ended (${oneLine(e.message)}).`,
      usage: false,
    };
  }
  const state = sqlState({ code });
  if (state !== undefined) {
    return {
      line: `the database refused the command: ${oneLine(e.message)} (SQLSTATE ${state}).`,
      usage: false,
    };
  }
  return {
    line: `unexpected error: ${oneLine(e.message)} (SVC_DEBUG=1 shows where).`,
    usage: false,
  };
}

/** A message on one line, without a URL's credentials. */
const oneLine = (message: string) =>
  message
    .replace(/\s*\n\s*/g, ' ')
    .replace(/(\w+:\/\/)[^/\s@]*@/g, '$1…@')
    .trim();
