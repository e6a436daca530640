import { AdminError } from '../admin.ts';
import { isSetupError, isUnavailable, reasonOf } from '../store/availability.ts';
import { redactUrl } from '../store/open.ts';
import { NotFound, UsageError } from './args.ts';

// How a command that failed says so: one line on stderr, `svc-server: ` and what went wrong in
// words (never a driver's stack or a database URL's password), followed by the usage hint when
// the command itself was refused (a wrong flag, an unknown plan). A database that cannot be
// reached or refuses us (each engine says which of its errors mean that), an id that names
// nothing, a statement the database refused or an unexpected failure is that one line alone.
// `SVC_DEBUG=1` adds the stack.

/** Errors whose message is written for the person at the command line, with the usage hint. */
const SAID = [UsageError, AdminError];

/** The line a failed command prints (without the `svc-server: ` prefix), and whether to add usage. */
export function errorLine(
  err: unknown,
  databaseUrl: string | undefined,
  said: readonly (abstract new (...args: never[]) => Error)[] = [],
): { line: string; usage: boolean } {
  const e = err instanceof Error ? err : new Error(String(err));
  if ([...SAID, ...said].some((kind) => e instanceof kind)) {
    return { line: oneLine(e.message), usage: true };
  }
  if (e instanceof NotFound) return { line: oneLine(e.message), usage: false };
  const where = databaseUrl ? redactUrl(databaseUrl) : 'the database';
  if (isUnavailable(e))
    return { line: `cannot use ${where}: ${oneLine(reasonOf(e))}.`, usage: false };
  // A setup to fix (access refused, no such database, a data dir open to others): its own words.
  if (isSetupError(err)) return { line: oneLine(err.message), usage: false };
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') {
    return {
      line: `the database refused the command: ${oneLine(e.message)} (${code}).`,
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
