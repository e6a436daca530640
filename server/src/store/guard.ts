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
  return new StoreAvailability(opts);
}

/** An outage: since when, calls refused, the first failure's reason and the call that failed. */
interface Outage {
  since: number;
  refused: number;
  reason: string;
  call: string;
}

class StoreAvailability implements Availability {
  readonly #opts: AvailabilityOptions;
  readonly #now: () => number;
  readonly #log: (line: string) => void;
  // `call`: the store method whose failure opened the outage. Only its success (or a ping) ends it:
  // a SQLite database whose write lock is held still answers reads, and a PostgreSQL batch can fail
  // on its connection while key lookups on others succeed.
  #outage: Outage | undefined;
  // Bumped at every change of state. A call reports its outcome under the generation it started
  // in, so a slow call that began before a change cannot flip the state back (a success begun
  // before the outage does not end it; a failure begun before the recovery does not reopen it).
  #generation = 0;
  #lastSuccess = Number.NEGATIVE_INFINITY;
  #probing: Promise<boolean> | undefined;

  constructor(opts: AvailabilityOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? (() => performance.now());
    this.#log = opts.log ?? ((line: string) => console.error(line));
  }

  health(): DatabaseHealth {
    const outage = this.#outage;
    return outage
      ? { database: 'down', downForMs: this.#now() - outage.since, refused: outage.refused }
      : { database: 'up' };
  }

  retryAfter(): number {
    const outage = this.#outage;
    return outage
      ? Math.min(MAX_RETRY_AFTER, Math.max(1, Math.ceil((this.#now() - outage.since) / 1000)))
      : 1;
  }

  ready(): Promise<boolean> {
    if (!this.#outage && this.#now() - this.#lastSuccess < (this.#opts.freshMs ?? 1000)) {
      return Promise.resolve(true);
    }
    this.#probing ??= this.#ping().finally(() => {
      this.#probing = undefined;
    });
    return this.#probing;
  }

  guard<T extends object>(target: T): T {
    const wrapped = new Map<PropertyKey, unknown>();
    return new Proxy(target, {
      get: (object, name, receiver) => {
        const value = Reflect.get(object, name, receiver);
        if (typeof value !== 'function' || name === 'close') return value;
        let fn = wrapped.get(name);
        if (!fn) {
          fn = this.#wrap(value as (...args: unknown[]) => unknown, object, String(name));
          wrapped.set(name, fn);
        }
        return fn;
      },
    });
  }

  #succeeded(started: number, call: string): void {
    this.#lastSuccess = this.#now();
    const outage = this.#outage;
    if (!outage || started !== this.#generation || (call !== outage.call && call !== PING)) return;
    const seconds = ((this.#lastSuccess - outage.since) / 1000).toFixed(1);
    this.#log(
      `svc-server: database available again after ${seconds} s; ${outage.refused} ` +
        `request${outage.refused === 1 ? ' was' : 's were'} answered 503 meanwhile`,
    );
    this.#outage = undefined;
    this.#generation++;
  }

  /** The error to throw instead of `error`; `refused`: a caller is answered 503 for it. */
  #failed(error: unknown, started: number, call: string, refused = true): unknown {
    if (!isUnavailable(error)) return error;
    if (!this.#outage && started === this.#generation) {
      this.#outage = { since: this.#now(), refused: 0, reason: reasonOf(error), call };
      this.#generation++;
      this.#log(
        `svc-server: database unavailable (${this.#outage.reason}); ingestion answers 503 with ` +
          'Retry-After until it is back',
      );
    }
    if (this.#outage && refused) this.#outage.refused++;
    return error instanceof StoreUnavailableError
      ? error
      : new StoreUnavailableError(this.retryAfter(), { cause: error });
  }

  async #ping(): Promise<boolean> {
    const ping = this.#opts.ping;
    if (!ping) return !this.#outage;
    const started = this.#generation;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error('ping timed out'), { code: 'ETIMEDOUT' })),
        this.#opts.pingTimeoutMs ?? 2000,
      );
    });
    try {
      await Promise.race([ping(), timeout]);
      this.#succeeded(started, PING);
      return true;
    } catch (error) {
      this.#failed(error, started, PING, false);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  #wrap(fn: (...args: unknown[]) => unknown, self: object, call: string) {
    return (...args: unknown[]): unknown => {
      const started = this.#generation;
      let result: unknown;
      try {
        result = fn.apply(self, args);
      } catch (error) {
        throw this.#failed(error, started, call);
      }
      if (result instanceof Promise) {
        return result.then(
          (value) => {
            this.#succeeded(started, call);
            return value;
          },
          (error) => {
            throw this.#failed(error, started, call);
          },
        );
      }
      if (!MEMORY_ANSWERS.has(call)) this.#succeeded(started, call);
      return result;
    };
  }
}
