import type { DriverError, Engine } from './engine.ts';

// Whether the database answers, seen from the store calls themselves: a call that fails because the
// database cannot be reached (connection refused or lost, server shutting down or starting up, out
// of connections, SQLite busy or its disk full) becomes a StoreUnavailableError, which the HTTP
// layer answers 503 with `Retry-After` (contract 7: never a 4xx for a transient condition; the SDKs
// retry 503). Each engine names its own such errors (`Engine.isUnavailable`, learnt as `open.ts`
// loads it). The first such failure starts an outage and logs one line; the first call that
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

// Socket codes any engine that talks to a server may see: the database cannot be reached now.
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

/** What an engine knows of its driver's errors (see `Engine` in engine.ts). */
type EngineErrors = Pick<Engine, 'isUnavailable' | 'isSetupError'>;
/** The rules of every engine this process loaded (`open.ts` adds each as it loads it). */
const engines = new Set<EngineErrors>();

/** Makes `isUnavailable` and `isSetupError` know an engine's errors. */
export function learnEngineErrors(engine: EngineErrors): void {
  engines.add(engine);
}

/** True for an error that says the database is unreachable or busy, not that the request is wrong. */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as DriverError).code;
  if (typeof code === 'string' && SOCKET_CODES.includes(code)) return true;
  for (const engine of engines) if (engine.isUnavailable(error)) return true;
  // AggregateError (a host name resolving to several addresses, each refused) and wrapped causes.
  const inner = (error as { errors?: unknown[] }).errors ?? [];
  return [error.cause, ...inner].some((e) => e !== undefined && e !== error && isUnavailable(e));
}

/**
 * True for an error an operator fixes (or waits out) that deserves one line, not a stack: a
 * database that refuses connections or cannot be found, a bad database URL, and each engine's own
 * (access refused, a data dir open to others).
 */
export function isSetupError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const code = (error as DriverError).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || /database URL/.test(error.message)) {
    return true;
  }
  for (const engine of engines) if (engine.isSetupError(error)) return true;
  return false;
}

/** A short reason for the log: the error's code and first line, never a stack. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const line = error.message.split('\n')[0] || error.name;
  return typeof code === 'string' && !line.includes(code) ? `${code}: ${line}` : line;
}
