// The bounded queue and its single drain loop. `pump()` is the only place a request starts, and it
// checks the in-flight count synchronously, so timers, flushes and completions can overlap freely
// without ever exceeding `concurrency`. A request waiting for its backoff keeps its slot. The
// platform is told when the queue goes busy or idle (Node holds busy clients for its exit flush).
import type { Bucket } from './counters.ts';
import type { Resolved } from './options.ts';
import type { Pipeline } from './pipeline.ts';
import { type Keepalive, PAST_BUDGET, type Prepared } from './send.ts';
import type { WirePayload } from './types.ts';

/** A queued report: its bytes, once prepared. */
interface Entry {
  prepared?: Prepared;
  prep?: Promise<Prepared>;
}

/** Browsers allow at most 64 KiB of keepalive bodies in flight per page. */
export const KEEPALIVE_BUDGET = 65_536;

type Timer = ReturnType<typeof setTimeout>;

export interface Queue {
  /**
   * True when one more report fits: pending and queued reports count, and the `unbuilt` calls not
   * built yet; in-flight ones do not.
   */
  hasRoom(unbuilt: number): boolean;
  /**
   * `hold(1)` reserves a slot for a report being built (its location, description or beforeSend
   * may still be pending); `hold(-1)` releases it once the report is queued or dropped.
   */
  hold(slots: 1 | -1): void;
  /**
   * Queues a built report and starts preparing its bytes (never called from the reporting call);
   * a failure surfaces when the report is sent.
   */
  push(payload: WirePayload): void;
  /** Sends everything now; resolves when idle or after `timeoutMs` (a number). Never rejects. */
  flush(timeoutMs?: unknown): Promise<void>;
  /** Browser unload: send every prepared report that fits the keepalive budget, right now. */
  unload(): void;
}

/**
 * `count` records each outcome; `busyChanged` is told when the queue goes busy / idle; `unref`
 * marks the cadence timer as not keeping a process alive.
 */
export function createQueue(
  config: Resolved,
  pipeline: Pipeline,
  count: (b: Bucket) => void,
  busyChanged: (busy: boolean) => void,
  unref?: (t: Timer) => void,
): Queue {
  let entries: Entry[] = [];
  let pending = 0;
  let inFlight = 0;
  let flushing = 0;
  let timer: Timer | undefined;
  let wasBusy = false;
  const idleWaiters = new Set<() => void>();

  const busy = () => pending + entries.length + inFlight > 0;
  function changed() {
    const now = busy();
    if (now !== wasBusy) {
      wasBusy = now;
      busyChanged(now);
    }
    if (!now) for (const w of idleWaiters) w();
  }

  function launch(e: Entry, keepalive?: Keepalive) {
    inFlight++;
    const done = (outcome: Bucket) => {
      inFlight--;
      count(outcome);
      pump();
      changed();
    };
    (e.prepared
      ? pipeline.send(e.prepared, keepalive)
      : (e.prep as Promise<Prepared>).then((p) => pipeline.send(p, keepalive))
    ).then(done, () => done('failed'));
  }

  /** The drain loop: start requests while slots are free. */
  function pump() {
    clearTimeout(timer);
    timer = undefined;
    while (inFlight < config.concurrency && entries.length) launch(entries.shift() as Entry);
  }

  return {
    hasRoom: (unbuilt) => pending + entries.length + unbuilt < config.maxQueueSize,
    hold(slots) {
      pending += slots;
      changed();
    },
    push(payload) {
      const e: Entry = {};
      entries.push(e);
      try {
        const r = pipeline.prepare(payload);
        if (r instanceof Promise) e.prep = r.then((p) => (e.prepared = p));
        else e.prepared = r;
      } catch (error) {
        e.prep = Promise.reject(error);
      }
      e.prep?.catch(() => undefined);
      if (flushing) pump();
      else if (!timer && !inFlight) {
        timer = setTimeout(pump, config.flushIntervalMs);
        unref?.(timer);
      }
    },
    flush(timeoutMs) {
      flushing++;
      pump();
      return new Promise<void>((resolve) => {
        let t: Timer | undefined;
        const done = () => {
          if (!idleWaiters.delete(done)) return;
          clearTimeout(t);
          flushing--;
          resolve();
        };
        idleWaiters.add(done);
        if (typeof timeoutMs === 'number') t = setTimeout(done, timeoutMs);
        if (!busy()) done();
      });
    },
    unload() {
      let budget = KEEPALIVE_BUDGET;
      entries = entries.filter((e) => {
        const size = e.prepared && new Blob([e.prepared.body]).size; // UTF-8 bytes
        if (!size) return true; // not prepared yet: it stays
        if (size > budget) launch(e, PAST_BUDGET);
        else {
          budget -= size;
          launch(e, true);
        }
        return false;
      });
    },
  };
}
