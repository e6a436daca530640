import { setTimeout as delay } from 'node:timers/promises';
import { isUnavailable } from '../store/availability.ts';

/** What `startWhenReachable` needs from its host: injected so tests control time and output. */
export interface WaitDependencies {
  /** Sleeps `ms`, rejecting when `signal` aborts. @default timers/promises setTimeout */
  sleep?: (ms: number, signal: AbortSignal) => Promise<unknown>;
  /** One line of the operator's log. @default console.error */
  log?: (line: string) => void;
  /** Stops the wait (a signal arrived); the start then resolves `undefined`. */
  signal: AbortSignal;
  /** First pause between attempts; doubles up to `maxDelayMs`. @default 500 */
  firstDelayMs?: number;
  /** Longest pause between attempts. @default 10000 */
  maxDelayMs?: number;
  /** @default Date.now */
  now?: () => number;
}

/**
 * Runs `start` until it succeeds, as long as it fails because the database cannot be reached yet
 * (refused, not resolving, starting up or shutting down: what passes by itself, the same rule as
 * the 503 answers). A database that answers wrongly (bad password, no such database) fails at once.
 * Logs one line when the wait begins and one, with the attempts, when it ends. Resolves `undefined`
 * when `signal` aborts during the wait.
 */
export async function startWhenReachable<T>(
  start: () => Promise<T>,
  deps: WaitDependencies,
): Promise<T | undefined> {
  const sleep = deps.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
  const log = deps.log ?? ((line: string) => console.error(line));
  const now = deps.now ?? Date.now;
  const maxDelayMs = deps.maxDelayMs ?? 10_000;
  let pauseMs = deps.firstDelayMs ?? 500;
  let failures = 0;
  const startedAt = now();
  for (;;) {
    if (deps.signal.aborted) return undefined;
    try {
      const started = await start();
      if (failures > 0) {
        const seconds = Math.round((now() - startedAt) / 1000);
        log(`svc-server: the database answered after ${failures + 1} attempts (${seconds} s)`);
      }
      return started;
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      if (failures === 0) {
        const reason = error instanceof Error ? error.message : String(error);
        log(
          `svc-server: the database cannot be reached at start-up (${reason}); ` +
            'retrying until it answers (SIGTERM or Ctrl-C stops)',
        );
      }
      failures++;
    }
    try {
      await sleep(pauseMs, deps.signal);
    } catch {
      return undefined; // aborted
    }
    pauseMs = Math.min(pauseMs * 2, maxDelayMs);
  }
}
