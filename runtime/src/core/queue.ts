// The bounded queue and its single drain loop. `pump()` is the only place a request starts, and it
// checks the in-flight count synchronously, so timers, flushes and completions can overlap freely
// without ever exceeding `concurrency`.
import type { Bucket } from './counters.ts';
import type { Resolved } from './options.ts';
import type { Pipeline } from './pipeline.ts';
import type { Prepared } from './send.ts';
import type { WirePayload } from './types.ts';

interface Entry {
  payload: WirePayload;
  prepared?: Prepared;
  prep?: Promise<Prepared>;
}

/** Browsers allow at most 64 KiB of keepalive bodies in flight per page. */
export const KEEPALIVE_BUDGET = 65_536;

type Timer = ReturnType<typeof setTimeout>;

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
) {
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

  function launch(e: Entry, keepalive?: boolean) {
    inFlight++;
    const done = (outcome: Bucket) => {
      inFlight--;
      count(outcome);
      pump();
      changed();
    };
    (e.prepared
      ? pipeline.send(e.payload, e.prepared, keepalive)
      : (e.prep as Promise<Prepared>).then((p) => pipeline.send(e.payload, p, keepalive))
    ).then(done, () => done('failed'));
  }

  /** The drain loop: start requests while slots are free. */
  function pump() {
    clearTimeout(timer);
    timer = undefined;
    while (inFlight < config.concurrency && entries.length) launch(entries.shift() as Entry);
  }

  return {
    /**
     * True when one more report fits: pending and queued reports count, and the `taken` slots of
     * calls not built yet (six a report); in-flight ones do not.
     */
    hasRoom: (taken: number) => pending + entries.length + taken / 6 < config.maxQueueSize,
    /**
     * `hold(1)` reserves a slot for a report being built (its location, description or beforeSend
     * may still be pending); `hold(-1)` releases it once the report is queued or dropped.
     */
    hold(slots: 1 | -1) {
      pending += slots;
      changed();
    },
    /**
     * Queues a built report and starts preparing its bytes (never called from the reporting call);
     * a failure surfaces when the report is sent. The report's slot is released next (`release`
     * tells whether the queue is busy).
     */
    push(payload: WirePayload) {
      const e: Entry = { payload };
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
    /** Sends everything now; resolves when idle or after `timeoutMs`. Never rejects. */
    flush(timeoutMs?: number): Promise<void> {
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
        if (timeoutMs! >= 0) t = setTimeout(done, timeoutMs);
        if (!busy()) done();
      });
    },
    /** Browser unload: send every prepared report that fits the keepalive budget, right now. */
    unload() {
      let budget = KEEPALIVE_BUDGET;
      entries = entries.filter((e) => {
        // UTF-8 bytes; a report not prepared yet stays.
        const size = e.prepared && new Blob([e.prepared.body]).size;
        if (!((size as number) <= budget)) return true;
        budget -= size as number;
        launch(e, true);
        return false;
      });
    },
  };
}

export type Queue = ReturnType<typeof createQueue>;
