import { isUnavailable, reasonOf, StoreUnavailableError } from './availability.ts';
import type { MaybePromise } from './types.ts';

export interface AvailabilityOptions {
  /** Monotonic milliseconds for outage ages. @default performance.now */
  now?: () => number;
  /** One line per outage start and end. @default console.error */
  log?: (line: string) => void;
  /** Checks the database answers (a trivial query); readiness calls it when in doubt. */
  ping?: () => MaybePromise<unknown>;
  /** A ping slower than this counts as a failure. @default 2000 */
  pingTimeoutMs?: number;
  /** Readiness trusts a store call that succeeded this recently instead of pinging. @default 1000 */
  freshMs?: number;
}

export interface DatabaseHealth {
  database: 'up' | 'down';
  /** While down: how long the outage has lasted (ms) and how many calls it refused so far. */
  downForMs?: number;
  refused?: number;
}

export interface Availability {
  health(): DatabaseHealth;
  /** Seconds a client should wait before retrying: the outage's age so far, from 1 up to 30. */
  retryAfter(): number;
  /** Readiness for a load balancer: pings the database when down or quiet, at most one at a time. */
  ready(): Promise<boolean>;
  /** Wraps every method of `target` (except `close`): unreachable-database failures become
   * StoreUnavailableError and open an outage; any success closes it. */
  guard<T extends object>(target: T): T;
}

const MAX_RETRY_AFTER = 30;
const PING = '(ping)';
/**
 * Calls whose synchronous answer comes from memory (`Store.findIngestKey`: a key PostgreSQL's
 * store keeps); only their asynchronous answers went to the database and say it is up.
 */
const MEMORY_ANSWERS = new Set(['findIngestKey']);

export function createAvailability(opts: AvailabilityOptions = {}): Availability {
  const now = opts.now ?? (() => performance.now());
  const log = opts.log ?? ((line: string) => console.error(line));
  // `call`: the store method whose failure opened the outage. Only its success (or a ping) ends it:
  // a SQLite database whose write lock is held still answers reads, and a PostgreSQL batch can fail
  // on its connection while key lookups on others succeed.
  let outage: { since: number; refused: number; reason: string; call: string } | undefined;
  // Bumped at every change of state. A call reports its outcome under the generation it started
  // in, so a slow call that began before a change cannot flip the state back (a success begun
  // before the outage does not end it; a failure begun before the recovery does not reopen it).
  let generation = 0;
  let lastSuccess = Number.NEGATIVE_INFINITY;
  let probing: Promise<boolean> | undefined;

  const retryAfter = () =>
    outage ? Math.min(MAX_RETRY_AFTER, Math.max(1, Math.ceil((now() - outage.since) / 1000))) : 1;

  const succeeded = (started: number, call: string) => {
    lastSuccess = now();
    if (!outage || started !== generation || (call !== outage.call && call !== PING)) return;
    const seconds = ((lastSuccess - outage.since) / 1000).toFixed(1);
    log(
      `svc-server: database available again after ${seconds} s; ${outage.refused} ` +
        `request${outage.refused === 1 ? ' was' : 's were'} answered 503 meanwhile`,
    );
    outage = undefined;
    generation++;
  };
  /** The error to throw instead of `error`; `refused`: a caller is answered 503 for it. */
  const failed = (error: unknown, started: number, call: string, refused = true): unknown => {
    if (!isUnavailable(error)) return error;
    if (!outage && started === generation) {
      outage = { since: now(), refused: 0, reason: reasonOf(error), call };
      generation++;
      log(
        `svc-server: database unavailable (${outage.reason}); ingestion answers 503 with ` +
          'Retry-After until it is back',
      );
    }
    if (outage && refused) outage.refused++;
    return error instanceof StoreUnavailableError
      ? error
      : new StoreUnavailableError(retryAfter(), { cause: error });
  };

  const ping = async (): Promise<boolean> => {
    if (!opts.ping) return !outage;
    const started = generation;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error('ping timed out'), { code: 'ETIMEDOUT' })),
        opts.pingTimeoutMs ?? 2000,
      );
    });
    try {
      await Promise.race([opts.ping(), timeout]);
      succeeded(started, PING);
      return true;
    } catch (error) {
      failed(error, started, PING, false);
      return false;
    } finally {
      clearTimeout(timer);
    }
  };

  const wrap =
    (fn: (...args: unknown[]) => unknown, self: object, call: string) =>
    (...args: unknown[]): unknown => {
      const started = generation;
      let result: unknown;
      try {
        result = fn.apply(self, args);
      } catch (error) {
        throw failed(error, started, call);
      }
      if (result instanceof Promise) {
        return result.then(
          (value) => {
            succeeded(started, call);
            return value;
          },
          (error) => {
            throw failed(error, started, call);
          },
        );
      }
      if (!MEMORY_ANSWERS.has(call)) succeeded(started, call);
      return result;
    };

  return {
    health: () =>
      outage
        ? { database: 'down', downForMs: now() - outage.since, refused: outage.refused }
        : { database: 'up' },
    retryAfter,
    ready() {
      if (!outage && now() - lastSuccess < (opts.freshMs ?? 1000)) {
        return Promise.resolve(true);
      }
      probing ??= ping().finally(() => {
        probing = undefined;
      });
      return probing;
    },
    guard<T extends object>(target: T): T {
      const wrapped = new Map<PropertyKey, unknown>();
      return new Proxy(target, {
        get(object, name, receiver) {
          const value = Reflect.get(object, name, receiver);
          if (typeof value !== 'function' || name === 'close') return value;
          let fn = wrapped.get(name);
          if (!fn) {
            fn = wrap(value as (...args: unknown[]) => unknown, object, String(name));
            wrapped.set(name, fn);
          }
          return fn;
        },
      });
    },
  };
}
