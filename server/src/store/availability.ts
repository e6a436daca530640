// Whether the database answers, seen from the store calls themselves: a call that fails because the
// database cannot be reached (connection refused or lost, server shutting down or starting up, out
// of connections, SQLite busy or its disk full) becomes a StoreUnavailableError, which the HTTP
// layer answers 503 with `Retry-After` (contract 7: never a 4xx for a transient condition; the SDKs
// retry 503). The first such failure starts an outage and logs one line; the first call that
// succeeds again ends it with one line that counts the calls refused meanwhile.

/** The database cannot be reached now; the operation may succeed after `retryAfter` seconds. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  constructor(
    readonly retryAfter: number,
    options: { cause: unknown },
  ) {
    super(`The database is unavailable: ${reasonOf(options.cause)}`, options);
  }
}

// SQLSTATE classes and codes that pass by themselves: connection exceptions (08), insufficient
// resources (53: too many connections, disk full, out of memory), shutdown, crash recovery and
// start-up (57P01 to 57P03), cancelled statements (57014), session timeouts (57P05, 25P03), lock
// and serialisation conflicts (55P03, 40001, 40P01).
const PG_CLASSES = ['08', '53'];
const PG_CODES = ['57P01', '57P02', '57P03', '57P05', '57014', '25P03', '55P03', '40001', '40P01'];
const SOCKET_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
];
// better-sqlite3 codes: another process holds the write lock past busy_timeout, the disk is full or
// failing.
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PROTOCOL)/;
// node-postgres errors that carry no code: lost or timed-out connections, a client that is not
// queryable after such a loss, and a pool that is shutting down.
const PG_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Query read timeout|Cannot use a pool after calling end/;

/** True for an error that says the database is unreachable or busy, not that the request is wrong. */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.length === 5 && (PG_CLASSES.includes(code.slice(0, 2)) || PG_CODES.includes(code))) {
      return true;
    }
    if (SOCKET_CODES.includes(code) || SQLITE_CODES.test(code)) return true;
  }
  if (PG_MESSAGES.test(error.message)) return true;
  // AggregateError (a host name resolving to several addresses, each refused) and wrapped causes.
  const inner = (error as { errors?: unknown[] }).errors ?? [];
  return [error.cause, ...inner].some((e) => e !== undefined && e !== error && isUnavailable(e));
}

/** A short reason for the log: the error's code and first line, never a stack. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const line = error.message.split('\n')[0] || error.name;
  return typeof code === 'string' && !line.includes(code) ? `${code}: ${line}` : line;
}
